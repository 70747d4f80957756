/** Common English function words, dropped from keyword terms (not from stored text). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here hers ' +
    'herself him himself his how i if in into is it its itself just let me more most my myself no nor not now of off ' +
    'on once only or other our ours ourselves out over own same she should so some such than that the their theirs ' +
    'them themselves then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom why will with would you your yours yourself yourselves s t d ll m re ve y don doesn didn ' +
    'isn aren wasn weren hasn haven hadn won wouldn shouldn couldn mustn im ive id youre hes shes its were theyre ' +
    'thats whats wheres whens whos hows also really just ok okay yeah yes lol'
  ).split(/\s+/),
);
