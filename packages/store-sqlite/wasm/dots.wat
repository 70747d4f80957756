;; Dot products of one query with many rows, four lanes at a time (WebAssembly SIMD): f32 rows, and
;; i8 rows (a coarse first pass over a quarter of the bytes, see guild-matrix.ts).
;; Source of packages/store-sqlite/src/vector-scan/dots-wasm.ts: edit here, then run
;; `node scripts/wasm.mjs` (test/dots-wasm.test.ts fails while the two differ).
(module
  (memory (export "memory") 1)
  ;; For r in [0, count): f32 at out + 4r = dot(query, row r), where the query is `stride` f32 at
  ;; address q and the rows are `stride` f32 each, back to back from address rows. stride is a
  ;; positive multiple of 8; q and rows are 16-byte aligned.
  (func (export "dots")
    (param $q i32) (param $rows i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $r i32) (local $i i32) (local $row i32) (local $bytes i32) (local $a v128) (local $b v128)
    (local.set $bytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $row (local.get $rows))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (loop $each_lane_pair
          (local.set $a
            (f32x4.add (local.get $a)
              (f32x4.mul
                (v128.load (i32.add (local.get $row) (local.get $i)))
                (v128.load (i32.add (local.get $q) (local.get $i))))))
          (local.set $b
            (f32x4.add (local.get $b)
              (f32x4.mul
                (v128.load offset=16 (i32.add (local.get $row) (local.get $i)))
                (v128.load offset=16 (i32.add (local.get $q) (local.get $i))))))
          (local.set $i (i32.add (local.get $i) (i32.const 32)))
          (br_if $each_lane_pair (i32.lt_u (local.get $i) (local.get $bytes))))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each_row))))

  ;; For r in [0, count): i32 at out + 4r = the dot product of the i8 query at q with the i8 row r,
  ;; `stride` bytes each (a positive multiple of 32), back to back from address rows. Exact: each
  ;; product fits 16 bits and each sum 32 bits for values in [-127, 127] and strides up to 65536.
  (func (export "qdots")
    (param $q i32) (param $rows i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $r i32) (local $i i32) (local $row i32) (local $acc v128) (local $acc2 v128)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local.set $row (local.get $rows))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $r) (local.get $count)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $acc2 (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (loop $each_32
          (local.set $a (v128.load (i32.add (local.get $row) (local.get $i))))
          (local.set $b (v128.load (i32.add (local.get $q) (local.get $i))))
          (local.set $c (v128.load offset=16 (i32.add (local.get $row) (local.get $i))))
          (local.set $d (v128.load offset=16 (i32.add (local.get $q) (local.get $i))))
          (local.set $acc
            (i32x4.add (local.get $acc)
              (i32x4.add
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
          (local.set $acc2
            (i32x4.add (local.get $acc2)
              (i32x4.add
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $c) (local.get $d)))
                (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $c) (local.get $d))))))
          (local.set $i (i32.add (local.get $i) (i32.const 32)))
          (br_if $each_32 (i32.lt_u (local.get $i) (local.get $stride))))
        (local.set $acc (i32x4.add (local.get $acc) (local.get $acc2)))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $row (i32.add (local.get $row) (local.get $stride)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each_row))))
)
