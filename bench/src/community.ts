/**
 * A synthetic Discord community for the latency suites: members with display names, facts about
 * them in the third person (what extraction writes), chat messages and questions that mention
 * members and topics. Deterministic (seeded).
 */
import { prng } from './stats.js';

const FIRST = [
  'Maya',
  'Leo',
  'Sam',
  'Priya',
  'Jonas',
  'Aiko',
  'Mateo',
  'Zoe',
  'Omar',
  'Freya',
  'Kenji',
  'Lucia',
  'Tariq',
  'Ines',
  'Noah',
  'Hana',
  'Felix',
  'Amara',
  'Diego',
  'Sofia',
  'Ravi',
  'Elin',
  'Marco',
  'Yara',
  'Theo',
  'Nadia',
  'Oskar',
  'Leila',
  'Ivan',
  'Chloe',
  'Kofi',
  'Mila',
  'Arjun',
  'Ada',
  'Hugo',
  'Rosa',
  'Emil',
  'Sana',
  'Pablo',
  'Vera',
  'Jin',
  'Alma',
  'Tomas',
  'Nora',
  'Bilal',
  'Greta',
  'Luca',
  'Iris',
  'Ezra',
  'Kira',
];
const HANDLE = ['_gg', 'x', '42', '.dev', '_art', 'zz', '_88', 'bot', 'ly', 'o'];

export const TOPICS = [
  'chess openings',
  'sourdough bread',
  'jazz records',
  'mountain biking',
  'rust compilers',
  'board games',
  'vintage synthesizers',
  'horror movies',
  'indoor climbing',
  'korean dramas',
  'street photography',
  'fantasy novels',
  'espresso machines',
  'mechanical keyboards',
  'trail running',
  'pixel art',
  'tabletop rpgs',
  'birdwatching',
  'origami',
  'speedrunning',
  'houseplants',
  'sci-fi anime',
  'vinyl collecting',
  'woodworking',
  'salsa dancing',
  'retro consoles',
  'craft beer',
  'marathon training',
  'watercolor painting',
  'astronomy',
  'elden ring',
  'minecraft servers',
  'guitar pedals',
  'kombucha',
  'formula one',
  'cycling tours',
  'japanese',
  'linux ricing',
  'pottery',
  'drum and bass',
];
export const PLACES = [
  'Berlin',
  'Osaka',
  'Lisbon',
  'Toronto',
  'Nairobi',
  'Lima',
  'Seoul',
  'Oslo',
  'Austin',
  'Perth',
  'Glasgow',
  'Lyon',
  'Porto',
  'Kraków',
  'Montreal',
  'Auckland',
];
const JOBS = [
  'nurse',
  'backend developer',
  'teacher',
  'barista',
  'architect',
  'sound engineer',
  'student',
  'data analyst',
  'chef',
  'game designer',
];
const PETS = ['a golden retriever', 'two cats', 'a corgi', 'a gecko', 'a parrot', 'a rescue greyhound'];
export const PET_NAMES = ['Biscuit', 'Mochi', 'Pixel', 'Nova', 'Waffles', 'Juniper', 'Tofu', 'Ziggy'];
export const GAMES = [
  'Elden Ring',
  'Hades',
  'Stardew Valley',
  'Factorio',
  'Celeste',
  "Baldur's Gate 3",
  'Hollow Knight',
  'Outer Wilds',
];

export interface Member {
  readonly id: string;
  readonly name: string;
  readonly username: string;
}

/** Discord-shaped ids. */
export const memberId = (n: number): string => String(284719530019274752n + BigInt(n) * 7_919_000_011n);

export function makeMembers(n: number): Member[] {
  return Array.from({ length: n }, (_, i) => {
    const first = FIRST[i % FIRST.length] as string;
    const gen = Math.floor(i / FIRST.length);
    const name = gen === 0 ? first : `${first} ${String.fromCharCode(65 + ((gen * 7 + i) % 26))}.`;
    return {
      id: memberId(i),
      name,
      username: `${first.toLowerCase()}${HANDLE[(i + gen) % HANDLE.length]}${gen || ''}`,
    };
  });
}

/** Fact texts about one member, in the third person. */
function factText(rand: () => number, m: Member): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  const n = m.name;
  switch (Math.floor(rand() * 12)) {
    case 0:
      return `${n} lives in ${pick(PLACES)} and moved there ${1 + Math.floor(rand() * 9)} years ago.`;
    case 1:
      return `${n} works as a ${pick(JOBS)} and mostly does night shifts.`;
    case 2:
      return `${n} has ${pick(PETS)} named ${pick(PET_NAMES)}.`;
    case 3:
      return `${n} is really into ${pick(TOPICS)} and talks about it most weekends.`;
    case 4:
      return `${n} dislikes ${pick(TOPICS)} and thinks it is overrated.`;
    case 5:
      return `${n} is learning ${pick(TOPICS)} with a friend from ${pick(PLACES)}.`;
    case 6:
      return `${n} is playing ${pick(GAMES)} and is stuck on the final boss.`;
    case 7:
      return `${n} plans a trip to ${pick(PLACES)} next month for a ${pick(TOPICS)} meetup.`;
    case 8:
      return `${n}'s birthday is in ${pick(['January', 'March', 'May', 'July', 'September', 'November'])}.`;
    case 9:
      return `${n} collects ${pick(TOPICS)} and owns more than ${10 + Math.floor(rand() * 90)} pieces.`;
    case 10:
      return `${n} used to study ${pick(['physics', 'law', 'music', 'biology', 'history', 'design'])} in ${pick(PLACES)}.`;
    default:
      return `${n} is allergic to ${pick(['peanuts', 'cats', 'pollen', 'shellfish', 'gluten'])}.`;
  }
}

const SERVER_FACTS = [
  'The server holds a movie night every Friday in the voice channel.',
  'The server bans spoilers outside the spoilers channel.',
  'The server runs a monthly game jam with a shared theme.',
  'The server has a book club that meets on the first Sunday of each month.',
  'The server uses the bot-commands channel for all bot commands.',
];

export interface SeedFact {
  readonly subjectId: string | null;
  readonly subjectName: string;
  readonly text: string;
}

/** N facts spread over the members (1 in 25 is a server fact). */
export function makeFactTexts(n: number, members: readonly Member[], seed = 1): SeedFact[] {
  const rand = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    if (i % 25 === 0)
      return {
        subjectId: null,
        subjectName: 'the server',
        text: `${SERVER_FACTS[(i / 25) % SERVER_FACTS.length]} (note ${i})`,
      };
    const m = members[Math.floor(rand() * members.length)] as Member;
    return { subjectId: m.id, subjectName: m.name, text: factText(rand, m) };
  });
}

const CHATTER = [
  'lol',
  'gg',
  'same',
  'true',
  'good night all',
  'brb',
  'anyone on?',
  'nice',
  'haha yes',
  'wait what',
  'ok',
  'this is fine',
  'omg',
  'yep',
  'lmao same',
  'who is up for a game',
  'gm',
  'ty!',
  'fr',
  'W',
];

/** A chat line by a member: mostly chatter and opinions, sometimes self-disclosure. */
export function chatLine(rand: () => number, other: Member): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  const r = rand();
  if (r < 0.35) return pick(CHATTER);
  if (r < 0.6) return `has anyone tried ${pick(TOPICS)}? thinking about getting into it`;
  if (r < 0.75) return `@${other.name} did you finish ${pick(GAMES)} yet? the ending is wild`;
  if (r < 0.87) return `I love ${pick(TOPICS)}, been doing it every weekend since I moved to ${pick(PLACES)}`;
  return `my ${pick(['cat', 'dog', 'gecko'])} ${pick(PET_NAMES)} just knocked my coffee over again`;
}

export interface Question {
  readonly askerId: string;
  readonly mentioned: readonly string[];
  readonly text: string;
}

/** Questions that mention a member by name (and as a mention) and a topic. */
export function makeQuestions(n: number, members: readonly Member[], seed = 2): Question[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
  return Array.from({ length: n }, () => {
    const asker = pick(members);
    const about = pick(members);
    const topic = pick(TOPICS);
    const text = pick([
      `hey, does ${about.name} still do ${topic}?`,
      `what do you know about ${about.name}?`,
      `where does ${about.name} live again?`,
      `is ${about.name} into ${topic} or was that someone else?`,
      `what pet does ${about.name} have?`,
      `who here likes ${topic}?`,
    ]);
    return { askerId: asker.id, mentioned: text.startsWith('who here') ? [] : [about.id], text };
  });
}
