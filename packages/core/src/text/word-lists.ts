/** Closed word lists the rules consult. Lowercase; multi-word entries are matched as phrases. */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s*,\s*/));

/** Head nouns that make "I'm a(n) …" a job statement. */
export const PROFESSIONS = set(`
  accountant, actor, actress, admin, analyst, animator, architect, artist, baker, barber, barista, bartender,
  biologist, bookkeeper, builder, butcher, carpenter, cashier, chef, chemist, cleaner, coach, consultant, cook,
  counselor, courier, dentist, designer, dev, developer, devops, doctor, driver, economist, editor, electrician,
  engineer, farmer, firefighter, freelancer, gardener, hairdresser, illustrator, intern, janitor, journalist,
  judge, lawyer, lecturer, librarian, lifeguard, machinist, manager, mechanic, medic, midwife, musician, nanny,
  nurse, officer, paralegal, paramedic, pharmacist, photographer, physicist, physician, physiotherapist, pilot,
  plumber, producer, professor, programmer, psychologist, realtor, receptionist, recruiter, researcher,
  scientist, secretary, soldier, streamer, surgeon, sysadmin, tailor, teacher, technician, therapist,
  translator, tutor, veterinarian, vet, waiter, waitress, welder, writer, youtuber, contractor, founder, ceo,
  cto, marketer, mathematician, statistician, tester, clerk, dispatcher, firefighter, cop, detective, guard,
  chemist, geologist, astronomer, historian, sailor, trucker, warehouse worker, social worker, data scientist
`);

export const PETS = set(`
  dog, cat, puppy, kitten, hamster, rabbit, bunny, parrot, bird, budgie, snake, lizard, gecko, turtle, tortoise,
  fish, goldfish, ferret, guinea pig, horse, rat, mouse, hedgehog, chinchilla, axolotl, frog, chicken, pony,
  retriever, labrador, lab, husky, corgi, poodle, pug, beagle, shiba, dachshund, chihuahua, bulldog, terrier,
  shepherd, collie, doberman, greyhound, spaniel, tabby, bearded dragon, cockatiel, tarantula
`);

/** Words for people related to the author; "gf"/"bf" are expanded during normalisation. */
export const KIN = set(`
  wife, husband, partner, girlfriend, boyfriend, fiance, fiancee, fiancé, fiancée, spouse, brother, sister,
  sibling, mom, mum, mother, dad, father, son, daughter, kid, twin, cousin, uncle, aunt, grandma, grandpa,
  grandmother, grandfather, best friend, roommate, boss, stepdad, stepmom, niece, nephew
`);

export const INSTRUMENTS = set(`
  guitar, bass, piano, drums, violin, viola, cello, ukulele, flute, clarinet, saxophone, sax, trumpet, trombone,
  harp, keyboard, synth, banjo, mandolin, harmonica, accordion, oboe, tuba, the guitar, the piano, the drums,
  the violin, the bass, the cello, the ukulele, the flute, the saxophone, the trumpet
`);

export const SPORTS = set(`
  soccer, football, basketball, baseball, tennis, volleyball, hockey, golf, rugby, cricket, badminton,
  table tennis, ping pong, pickleball, lacrosse, softball, handball, squash, water polo, ultimate frisbee,
  chess, pool, darts, bowling, dnd, d&d, dungeons and dragons
`);

/** Objects that, with a laugh or eye-roll, make "I love X" sarcasm rather than a preference. */
export const UNPLEASANT = [
  'waiting',
  'line',
  'lines',
  'queue',
  'traffic',
  'monday',
  'mondays',
  'taxes',
  'homework',
  'chores',
  'meeting',
  'meetings',
  'being ignored',
  'getting up early',
  'waking up early',
  'paperwork',
  'commute',
  'commuting',
  'lag',
  'deadlines',
  'being sick',
  'overtime',
  'dishes',
  'laundry',
  'exams',
  'when my',
  'stepping on',
  'hold music',
  'on hold',
  'being stuck',
  'getting stuck',
  'spoilers',
] as const;

/** Nouns naming a scheduled community event ("game night", "the tournament"). */
export const EVENT_NOUNS = set(`
  night, party, session, tournament, meetup, meet-up, stream, event, raid, jam, hangout, contest, giveaway,
  match, scrim, lan, marathon, q&a, ama, meeting, book club, competition, championship, watch party, movie night,
  game night, trivia, karaoke, quiz, workshop, league, season, playtest, launch, premiere, cup
`);

/** School words that make "I go to X" an education statement. */
export const SCHOOL_WORD =
  /\b(?:university|universit\w*|college|school|uni|academy|institute|polytechnic|conservatory|u of|high|grad school|campus)\b/i;
