/** Published / computed reference rows (benchmarks.md §1.4 DRAGON, §1.5 BM25 floor), frac %. */
export interface AnchorRow {
  readonly name: string;
  /** k → [single-hop(4), multi-hop(1), temporal(2), open-domain(3), adversarial(5), overall] */
  readonly atK: Readonly<Record<string, readonly [number, number, number, number, number, number]>>;
}

export const TURN_ANCHORS: readonly AnchorRow[] = [
  {
    name: 'DRAGON (LoCoMo paper, Table 3)',
    atK: {
      '5': [68.0, 35.4, 70.4, 33.1, 43.9, 56.7],
      '10': [77.7, 46.6, 77.3, 40.8, 54.7, 66.2],
      '25': [87.1, 62.5, 83.5, 52.6, 66.3, 76.7],
      '50': [91.1, 73, 89.6, 61.7, 72.5, 82.7],
    },
  },
  {
    name: 'BM25 floor (benchmarks.md §1.5)',
    atK: {
      '5': [53.3, 13.0, 53.3, 17.0, 52.8, 45.8],
      '10': [61.2, 20.2, 60.6, 24.5, 57.8, 52.8],
      '25': [71.0, 32.0, 69.5, 33.1, 70.2, 63.3],
      '50': [77.3, 40.4, 75.9, 36.8, 75.9, 69.6],
    },
  },
];

export const OBSERVATION_ANCHORS: readonly AnchorRow[] = [
  {
    name: 'DRAGON (LoCoMo paper, Table 3)',
    atK: {
      '5': [67.1, 41.4, 73.1, 35.1, 37.7, 56.2],
      '10': [70.5, 50.9, 76.4, 37.6, 45.1, 61.3],
      '25': [74.7, 60.6, 80.3, 49.0, 53.5, 67.5],
      '50': [76.3, 67.8, 82.0, 55.9, 59.5, 71.2],
    },
  },
  {
    name: 'BM25 floor (benchmarks.md §1.5)',
    atK: {
      '5': [54.1, 18.9, 59.9, 17.6, 54.3, 48.4],
      '10': [61.3, 25.4, 63.2, 22.5, 58.9, 54.1],
      '25': [66.6, 35.2, 69.4, 28.2, 65.0, 60.4],
      '50': [69.7, 45.1, 73.7, 36.7, 68.2, 64.9],
    },
  },
];
