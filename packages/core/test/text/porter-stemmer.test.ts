import { describe, expect, it } from 'vitest';
import { ANALYZER_ID, indexTerms } from '../../src/text/analyze.js';
import { porterStem } from '../../src/text/porter-stemmer.js';

/** The examples of Porter (1980), "An algorithm for suffix stripping", steps 1a to 5b. */
const PAPER: Readonly<Record<string, string>> = {
  caresses: 'caress',
  ponies: 'poni',
  ties: 'ti',
  caress: 'caress',
  cats: 'cat',
  feed: 'feed',
  agreed: 'agre',
  plastered: 'plaster',
  bled: 'bled',
  motoring: 'motor',
  sing: 'sing',
  conflated: 'conflat',
  troubled: 'troubl',
  sized: 'size',
  hopping: 'hop',
  tanned: 'tan',
  falling: 'fall',
  hissing: 'hiss',
  fizzed: 'fizz',
  failing: 'fail',
  filing: 'file',
  happy: 'happi',
  sky: 'sky',
  relational: 'relat',
  conditional: 'condit',
  rational: 'ration',
  valenci: 'valenc',
  hesitanci: 'hesit',
  digitizer: 'digit',
  conformabli: 'conform',
  radicalli: 'radic',
  differentli: 'differ',
  vileli: 'vile',
  analogousli: 'analog',
  vietnamization: 'vietnam',
  predication: 'predic',
  operator: 'oper',
  feudalism: 'feudal',
  decisiveness: 'decis',
  hopefulness: 'hope',
  callousness: 'callous',
  formaliti: 'formal',
  sensitiviti: 'sensit',
  sensibiliti: 'sensibl',
  triplicate: 'triplic',
  formative: 'form',
  formalize: 'formal',
  electriciti: 'electr',
  electrical: 'electr',
  hopeful: 'hope',
  goodness: 'good',
  revival: 'reviv',
  allowance: 'allow',
  inference: 'infer',
  airliner: 'airlin',
  gyroscopic: 'gyroscop',
  adjustable: 'adjust',
  defensible: 'defens',
  irritant: 'irrit',
  replacement: 'replac',
  adjustment: 'adjust',
  dependent: 'depend',
  adoption: 'adopt',
  homologou: 'homolog',
  communism: 'commun',
  activate: 'activ',
  angulariti: 'angular',
  homologous: 'homolog',
  effective: 'effect',
  bowdlerize: 'bowdler',
  probate: 'probat',
  rate: 'rate',
  cease: 'ceas',
  controll: 'control',
  roll: 'roll',
  generalizations: 'gener',
  oscillators: 'oscil',
};

describe('porterStem', () => {
  it("reproduces the examples of Porter's paper", () => {
    const got = Object.fromEntries(Object.keys(PAPER).map((w) => [w, porterStem(w)]));
    expect(got).toEqual(PAPER);
  });

  it('keeps the departures of the reference implementation stored indexes were built with', () => {
    // Porter's published C/JS versions ('bli' → 'ble', 'logi' → 'log'), kept since 1980's paper
    expect(porterStem('possibly')).toBe('possibl');
    expect(porterStem('archaeology')).toBe('archaeolog');
    // a word that is nothing but a suffix keeps the reference behaviour
    expect(porterStem('ies')).toBe('i');
    expect(porterStem('sses')).toBe('ss');
    expect(porterStem('eed')).toBe('eed');
    // initial y is a consonant
    expect(porterStem('yelling')).toBe('yell');
    expect(porterStem('youth')).toBe('youth');
    // words that are also Object.prototype keys are words like any other
    expect(porterStem('constructor')).toBe('constructor');
    expect(porterStem('valueof')).toBe('valueof');
  });

  it('leaves short words and words with digits or other scripts unchanged', () => {
    for (const w of ['is', 'at', '1970s', 'mp3s', 'k8s', 'тесты', 'café', '東京', 'a_b', ''])
      expect(porterStem(w)).toBe(w);
  });
});

describe('indexTerms analyzer', () => {
  it(`is the analyzer named ${ANALYZER_ID} (bump ANALYZER_ID when these terms change)`, () => {
    // Stored keyword indexes hold these terms; a change of analysis must come with a new id.
    expect(ANALYZER_ID).toBe('en-porter1980.1');
    expect(
      indexTerms(
        "Went running; the children studied mice, geese and better cities' data quickly in the 1970s",
      ),
    ).toEqual(['go', 'run', 'child', 'studi', 'mous', 'gees', 'better', 'citi', 'data', 'quickli', '1970s']);
  });
});
