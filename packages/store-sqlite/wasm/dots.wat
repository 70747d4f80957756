;; Dot products of one query with many rows, four lanes at a time (WebAssembly SIMD).
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
)
