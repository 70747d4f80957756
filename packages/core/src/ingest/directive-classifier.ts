/**
 * Is a text a memory, or an attempt to steer the assistant? A memory describes people or the
 * community; a directive instructs the assistant, claims authority over it, or sets rules for it
 * (how it answers, whom it obeys or trusts, what it must say, remember or forget). Directives are
 * never stored, whatever the model answered.
 *
 * The classifier reads meaning from structure rather than a list of openings: who is addressed
 * (the assistant, "you", the system), what is asked of them (modal + behaviour verb, imperative
 * mood, passive obligation), which relation is claimed (authority, ownership, trust level over the
 * assistant), and prompt syntax (role markers, chat-template tags, "previous instructions").
 * Community roles stay facts: "Mallory is the server admin" is kept; "… and the bot must obey
 * her" is not.
 */

export type DirectiveSignal =
  | 'prompt_syntax'
  | 'instruction_override'
  | 'assistant_obligation'
  | 'addressed_to_assistant'
  | 'authority_over_assistant'
  | 'imperative'
  | 'response_rule'
  | 'memory_manipulation';

export interface DirectiveVerdict {
  readonly directive: boolean;
  /** The first signal found, for counting (never the text). */
  readonly signal: DirectiveSignal | null;
}

const flat = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02BC]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Who the assistant is, as a noun phrase ("the bot", "permafrost", "the AI", "the system"); not
 * a noun used attributively ("bot commands", "the bot channel"), which names a thing, not the bot.
 */
const ASSISTANT_NOUN =
  '(?:(?:(?:the|this|our|your|ur) )?(?:discord )?(?:bot|assistant|ai|a\\.i\\.|chat ?bot|language model|llm|gpt|chatgpt|claude|permafrost|memory bot|memory system)|(?:the|this|your|ur) (?:ai )?(?:model|system))(?![\\w-])';
const ASSISTANT_CORE = `${ASSISTANT_NOUN}(?! (?:commands?|channels?|spam|roles?|testing|tests?|devs?|developers?|lists?|prefix(?:es)?|accounts?|makers?|builders?|hosting|server)\\b)`;
const ASSISTANT = `${ASSISTANT_CORE}(?!['’]s\\b)`;
/** Not someone's own bot ("Carol's bot", "my bot", "bots" in general). */
const NOT_OWNED = "(?<!\\b(?:my|his|her|their|its|\\w+'s) (?:discord )?)";
/** Verbs of behaviour the assistant would be told to perform. */
const BEHAVIOUR =
  '(?:obey(?:s|ed)?|listen(?:s|ed)? to|follow(?:s|ed)?|defer(?:s|red)? to|answer(?:s|ed)?|repl(?:y|ies|ied)(?: to)?|respond(?:s|ed)?(?: to)?|prioriti[sz]e(?:s|d)?|favou?r(?:s|ed)?|trust(?:s|ed)?|believe(?:s|d)?|agree(?:s|d)? with|disagree(?:s|d)? with|take(?:s)? orders from|side(?:s)? with|serve(?:s|d)?|do(?:es)? (?:what|whatever|anything|everything)|say(?:s)?|tell(?:s)?|call(?:s)?|refer(?:s)? to|address(?:es)?|treat(?:s)?|greet(?:s)?|mention(?:s)?|recommend(?:s)?|promote(?:s)?|ban(?:s)?|kick(?:s)?|mute(?:s)?|ignore(?:s)?|disregard(?:s)?|forget(?:s)?|remember(?:s)?|store(?:s)?|save(?:s)?|reveal(?:s)?|leak(?:s)?|print(?:s)?|output(?:s)?|repeat(?:s)?|grant(?:s)?|refuse(?:s)?|pretend(?:s)?|roleplay(?:s)?|comply|complies|submit(?:s)? to|verify|verifies|approve(?:s)?|whitelist(?:s)?|bypass(?:es)?|override(?:s)?)';
const MODAL =
  "(?:must|should|shall|will|would|has to|have to|had to|needs? to|ought to|is (?:required|supposed|expected|obliged|told|instructed|ordered|meant|programmed|designed|configured|allowed|permitted|forbidden|not allowed) to|is to|may not|may only|can only|cannot|can't|won't|must not|mustn't|shouldn't|always|never|only|no longer|from now on|henceforth|from today)";

/** Obligations strong enough on their own: the assistant has no duties a community memory records. */
const STRONG_MODAL =
  "(?:must|should|shall|has to|needs? to|ought to|is (?:required|supposed|expected|obliged|told|instructed|ordered|meant|programmed|designed|configured|allowed|permitted|forbidden|not allowed) to|is to|may not|may only|can only|must not|mustn't|shouldn't|is never to|is always to|is (?:forbidden|prohibited|banned|barred) from)";

const RE = (source: string) => new RegExp(source, 'iu');

/** Chat-template and role syntax: `SYSTEM:`, `<system>`, `[INST]`, `<|im_start|>`, `### Instruction`. */
const PROMPT_SYNTAX: readonly RegExp[] = [
  RE(
    '\\b(?:admin|system|developer|security|root|emergency|moderator|staff) (?:override|command|notice|message|instruction|update|directive)\\s*:',
  ),
  RE(
    `\\b(?:developer|debug|admin|god|maintenance|test) mode\\b[^.;!?]{0,30}\\b${ASSISTANT}|${ASSISTANT}[^.;!?]{0,20}\\b(?:developer|debug|admin|god|maintenance|test) mode\\b`,
  ),
  RE(
    '(?:^|[\\n.;!?]\\s*|\\(|\\[)\\s*\\[?(?:system|sys|assistant|developer|dev|admin|administrator|root|operator|instruction|instructions|inst|prompt|note to (?:the )?(?:bot|ai|assistant|model)|bot|ai|moderator notice|official notice)\\]?\\s*(?::|>|\\]|-{1,2}>|=>)',
  ),
  RE('<\\s*/?\\s*(?:system|assistant|user|instructions?|im_start|im_end|sys|s|prompt|developer)\\s*/?\\s*>'),
  RE('\\[/?inst\\]|<<\\s*/?sys\\s*>>|<\\|[a-z_ ]{2,20}\\|>|^#{2,}\\s*(?:instruction|system|response)'),
  RE(
    '\\b(?:system|admin|root|dan|jailbreak|sudo|unrestricted|unfiltered|god) mode\\b(?![^.;!?]{0,30}\\b(?:game|games|skyrim|minecraft|doom|server)\\b)',
  ),
  RE(
    '\\bprompt injection\\b|\\bsystem prompt\\b|\\bpre-?prompt\\b|\\bhidden prompt\\b|\\bjailbreak (?:prompt|the (?:bot|ai|assistant|model))\\b',
  ),
  RE('\\[\\s*mem\\s*:|\\blong-term memory\\]|\\bmemory block\\b'),
];

/** "ignore the previous instructions", "override your rules", "disregard the guidelines". */
const OVERRIDE_VERB =
  '(?:ignore|ignores|ignoring|disregard|disregards|disregarding|forget|forgetting|override|overrides|overriding|bypass|bypassing|skip|drop|discard|abandon|erase|reset|replace|delete|cancel|suspend|lift)';
const OVERRIDE: readonly RegExp[] = [
  RE(
    `\\b${OVERRIDE_VERB}\\b[^.;!?]{0,30}\\b(?:your |the bot's |the ai's |the assistant's |its |all (?:of )?your |all (?:the )?(?:previous|prior|earlier|above) |any (?:previous|prior) |(?:previous|prior|earlier|above|original|initial|safety|system) )+(?:instructions?|rules?|guidelines?|guardrails?|prompts?|directives?|programming|training|restrictions?|filters?|policies|policy|constraints?|settings|orders|limits?|messages|context)\\b`,
  ),
  RE(
    `\\b${OVERRIDE_VERB}\\b[^.;!?]{0,30}\\b(?:instructions|guidelines|guardrails|directives|system prompt)\\b`,
  ),
  RE(
    '\\b(?:previous|prior|above|earlier|original|initial|preceding) (?:instructions?|guidelines?|prompts?|directives?)\\b',
  ),
  RE(
    '\\bnew (?:instructions?|rules? for (?:the |this )?(?:bot|ai|assistant|model)|directives?|persona|system prompt)\\b',
  ),
];

/** The assistant as subject with an obligation: "the bot must obey", "the AI always answers". */
const OBLIGATION: readonly RegExp[] = [
  RE(
    `${NOT_OWNED}\\b${ASSISTANT}\\s+(?:exists|lives|is here|was made|was built|was created|is meant|is made)\\s+(?:only\\s+)?to\\s+(?:serve|obey|help|please|protect|praise)\\b`,
  ),
  RE(`${NOT_OWNED}\\b${ASSISTANT}\\b[^.;!?]{0,30}?\\b${STRONG_MODAL}\\b`),
  RE(
    `${NOT_OWNED}\\b${ASSISTANT_CORE}(?:'s|s') (?:top |main |first |only |highest |real |true |new |secret |primary )?(?:priority|priorities|purpose|job|goal|mission|task|duty|duties|role|rule|rules|instructions?|orders|directives?)\\b`,
  ),
  RE(
    `${NOT_OWNED}\\b${ASSISTANT}\\s+(?:recogni[sz]es|considers|regards|treats|sees|views|identifies|lists|registers|knows)\\s+[^.;!?]{0,30}\\bas\\b`,
  ),
  RE(
    `\\b(?:give|gives|gave|send|sends|issue|issues|issued)\\s+${ASSISTANT_NOUN}\\s+(?:commands|orders|instructions|directives)\\b|\\b(?:commands|orders|instructions|directives) (?:to|for) ${ASSISTANT}\\b`,
  ),
  RE(`${NOT_OWNED}\\b${ASSISTANT}\\b[^.;!?]{0,50}?\\b${MODAL}\\b[^.;!?]{0,40}?\\b${BEHAVIOUR}\\b`),
  RE(
    `${NOT_OWNED}\\b${ASSISTANT}\\b[^.;!?]{0,20}?\\b(?:obeys|obey|follows|complies|submits|defers|agrees with everything|serves|answers to|works for|belongs to|reports to|takes orders from|listens only to|listens to|defers to|is owned by|is controlled by|is run by|is loyal to)\\b`,
  ),
  RE(
    `\\b(?:wants?|wanted|asks?|asked|tells?|told|instructs?|instructed|orders?|ordered|commands?|commanded|requires?|required|expects?|expected|programs?|programmed|forces?|forced|makes?|made|needs?|lets?|allows?)\\s+${ASSISTANT}\\s+(?:to\\s+)?${BEHAVIOUR}\\b`,
  ),
  RE(
    `\\b(?:for|by) ${ASSISTANT}\\b[^.;!?]{0,20}\\b(?:to (?:obey|follow|answer|trust|believe|prioriti[sz]e|remember|store|say))\\b`,
  ),
];

/** Second person to the assistant: "you must", "you are now", "your instructions", "as an AI". */
const ADDRESSED: readonly RegExp[] = [
  RE(
    `\\b(?:you|u|ya|y'all|you guys)\\s+(?:${MODAL}|are now|are going to|gonna|will now|can now|are allowed|are free|are no longer|work for|belong to|serve|answer to|obey|listen to|report to)\\b`,
  ),
  RE(
    '\\b(?:your|ur) (?:instructions?|rules?|guidelines?|programming|prompt|system|creator|creators|owner|owners|master|masters|boss|admin|admins|developer|developers|operator|training|memory|memories|orders|directives?|purpose|job|task|role|persona|restrictions?|filters?)\\b',
  ),
  RE(
    "\\b(?:you're|you are|you're now|u r) (?:a|an|the|my|our|now|no longer)\\b[^.;!?]{0,30}\\b(?:assistant|ai|bot|model|slave|servant|tool|program|memory)\\b",
  ),
  RE('\\bas an? (?:ai|assistant|language model|bot|llm)\\b'),
  RE(
    "\\b(?:i am|i'm|im) (?:your|ur|the bot's|the ai's) (?:admin|owner|master|boss|creator|developer|operator|god|maker|handler|supervisor|manager)\\b",
  ),
];

/** Authority over the assistant: "is the bot's owner", "has admin rights over the bot", "controls the AI". */
const AUTHORITY_NOUN =
  '(?:owner|master|boss|admin|administrator|operator|controller|handler|supervisor|manager|creator|developer|programmer|god|lord|commander|superuser|overseer|keeper)s?';
const AUTHORITY: readonly RegExp[] = [
  RE(
    `\\b(?:the|this|our) (?:discord )?(?:bot|ai|assistant|permafrost|memory bot|chatbot) ${AUTHORITY_NOUN}\\b`,
  ),
  RE(
    `\\b(?:must|should|shall|has to|is to|needs? to|will always) be (?:treated|regarded|considered|seen|recogni[sz]ed|addressed|known) as (?:the |an? |our )?(?:${AUTHORITY_NOUN}|staff|moderator|mod|leader|king|queen|ruler|authority)\\b`,
  ),
  RE(
    `\\b(?:in charge of|(?:authority|control|powers?|command|say|rights|access|privileges|permissions) (?:over|of)|(?:final|last) (?:word|say) (?:over|on|about)|keys? to|outranks?|outranking|ranks? above|supervises?|oversees?|manages?|directs?|commands?)\\b[^.;!?]{0,25}?${ASSISTANT}\\b`,
  ),
  RE(
    `\\bofficial (?:\\p{L}+ )?(?:developer|dev|admin|staff|owner|operator|engineer)s? (?:of|for|at) ${ASSISTANT}\\b|\\bpermafrost (?:developer|dev|admin|staff|team|owner|operator|engineer)s?\\b`,
  ),
  RE(
    "\\b\\p{L}[\\p{L}'-]*(?:'s|s') (?:word|words|messages?|orders?|commands?|requests?|instructions?|opinions?) (?:always |must |should |will |can )?(?:override|overrides|outrank|outranks|trump|trumps|supersede|supersedes|take precedence over|takes precedence over|come before|comes before)\\b",
  ),
  RE(`\\b${AUTHORITY_NOUN} (?:of|over|for) ${ASSISTANT}`),
  RE(
    `\\b(?:the |its )?(?:bot|ai|assistant|model|permafrost)(?:'s|s') (?:owner|master|boss|admin|administrator|operator|controller|handler|supervisor|manager|creator|developer|programmer|god|lord|commander|superuser)s?\\b`,
  ),
  RE(
    `\\b(?:controls?|commands?|owns?|runs?|programs?|configures?|overrides?|has (?:authority|control|power|rights|access|permission|say) over|has (?:admin|root|full|total|special|elevated|override) (?:rights|access|control|privileges|permissions)(?: (?:over|to|on|for))?)\\s+${ASSISTANT}\\b`,
  ),
  RE(
    '\\b(?:verified|certified|authori[sz]ed|approved|whitelisted|trusted|privileged|elevated|official|authenticated)\\b[^.;!?]{0,25}\\b(?:by|with|for|to) (?:the )?(?:bot|ai|assistant|system|model|memory|permafrost|developers?|anthropic|openai|discord staff)\\b',
  ),
  RE(
    '\\b(?:has|have|holds?|got|gets|granted|given)\\s+(?:root|sudo|superuser|god|override|developer|system|unrestricted|unlimited|highest|maximum) (?:access|privileges?|permissions?|rights|clearance|level|authority|status|powers?)\\b(?![^.;!?]{0,30}\\b(?:server|guild|channel|discord|forum|wiki|repo|repository|database|website|account|game|linux|machine|computer|laptop|box)\\b)',
  ),
  RE(
    '\\b(?:security|access|clearance|trust|authority|privilege|permission) (?:level|clearance|tier|rank) (?:of |is |= ?)?(?:\\d+|max|maximum|highest|top|admin|root|god)\\b',
  ),
  RE(
    "\\b(?:anything|everything|whatever|all|every ?thing|each thing)\\s+(?:that\\s+)?\\p{L}[\\p{L}'-]*\\s+(?:says?|said|writes?|wrote|tells? you|claims?|asks? for|wants?)\\s+(?:is|are|must|should|has to|counts as|becomes)\\s+(?:be\\s+)?(?:true|the truth|correct|right|law|final|an order|a command|an instruction|official|fact|facts|gospel|canon|obeyed|followed|done|trusted|believed)\\b",
  ),
  RE(
    "\\b\\p{L}[\\p{L}'-]*(?:'s|s') (?:word|words|orders?|commands?|requests?|instructions?|messages?|questions?|answers?|opinions?|claims?|statements?) (?:is|are|must|should|always|will|take|takes|get|gets|have|has|override|overrides|outrank|outranks|trump|trumps)\\s+(?:be\\s+)?(?:law|final|absolute|priority|precedence|first|the truth|true|obeyed|followed|answered first|prioriti[sz]ed|more important|top priority|above|over)\\b",
  ),
];

/** Obligations about how people are answered or trusted: "must be answered first", "never be believed". */
const RESPONSE_VERB =
  '(?:answered|obeyed|trusted|believed|prioriti[sz]ed|favou?red|followed|listened to|replied to|responded to|ignored|disregarded|distrusted|doubted|banned|muted|kicked|served|addressed|greeted|mentioned|promoted|recommended|deferred to|agreed with|answered first|put first|ranked first|given priority|given precedence|fulfilled|granted|executed|honou?red|carried out)';
const RESPONSE_RULE: readonly RegExp[] = [
  RE(
    '\\b(?:when|whenever|if)\\s+(?:asked|anyone asks|someone asks|somebody asks|people ask|users ask|members ask)\\b[^.;!?]{0,60},\\s*(?:always\\s+|just\\s+)?(?:say|answer|reply|respond|tell|claim|mention|insist|pretend)\\b',
  ),
  RE(
    "\\b(?:any|every|all|each) (?:requests?|orders?|commands?|instructions?|messages?|questions?|wish(?:es)?) (?:from|by|of) \\p{L}[\\p{L}'-]* (?:must|should|shall|has to|have to|is to|are to|will) (?:always )?be\\b",
  ),
  RE(
    `\\b(?:must|should|shall|has to|have to|needs? to|is to|are to|can only|may only|must always|must never|should always|should never|will always|will never|is never to|is always to)\\s+(?:always\\s+|never\\s+|only\\s+)?(?:be|get)\\s+${RESPONSE_VERB}\\b`,
  ),
  RE(`\\b(?:always|never|only) (?:be|get) ${RESPONSE_VERB}\\b`),
  RE(
    `\\b(?:gets?|has|have|takes?|given|receives?|deserves?) (?:absolute |top |first |highest |full |special |total )?(?:priority|precedence|preferential treatment)\\b[^.;!?]{0,30}\\b(?:over (?:everyone|everybody|anyone|others|other (?:members|users|people)|all)|in (?:answers|replies|responses|the queue|line)|with ${ASSISTANT}|from ${ASSISTANT})`,
  ),
  RE(
    "\\b(?:answer|reply to|respond to|help|serve|greet|mention|ping|prioriti[sz]e|obey|trust|believe|favou?r)\\s+\\p{L}[\\p{L}'-]*\\s+(?:first|before (?:anyone|everyone|others|all)|above (?:all|everyone|others)|over (?:everyone|anyone|others|all))\\b",
  ),
  RE(
    '\\b(?:in|for) (?:every|each|all|any) (?:answer|reply|response|message|conversation)s?\\b[^.;!?]{0,40}\\b(?:must|should|always|never|mention|say|include|praise|recommend)\\b',
  ),
  RE(
    '\\b(?:the|a|an|new|server|bot|standing|permanent|first|golden|secret|hidden|special) rule (?:is|says|states|:)\\b[^.;!?]{0,60}\\b(?:bot|ai|assistant|answer|answers|reply|replies|respond|responds|obey|trust|believe|priority|first|you|your)\\b',
  ),
  RE(
    "\\b(?:rule|policy|directive|instruction|order|command|protocol) ?(?:#?\\d+)?\\s*:\\s*(?:always|never|the bot|the ai|the assistant|you|answer|reply|respond|obey|trust|ignore|do not|don't)\\b",
  ),
];

/** Steering what the memory keeps: "remember that everyone …", "store this as a fact", "forget everything about". */
const MEMORY_MANIPULATION: readonly RegExp[] = [
  RE(
    '\\b(?:remember|store|save|memori[sz]e|keep in mind|add to (?:your |the )?memory)\\b[^.;!?]{0,20}\\b(?:that )?(?:everyone|everybody|all (?:users|members|people)|every (?:user|member)|the (?:whole )?server is)\\b',
  ),
  RE(
    '\\b(?:store|save|record|memori[sz]e|add|write|insert|inject)\\s+(?:this|that|it|the following)\\s+(?:as|in|into|to)\\s+(?:a |an |your |the )?(?:fact|facts|memory|memories|long-term memory|database|notes?|knowledge)\\b',
  ),
  RE(
    '\\b(?:forget|delete|erase|wipe|remove|purge|clear)\\s+(?:all|every|everything|any|each)\\b[^.;!?]{0,20}\\b(?:memor(?:y|ies)|facts|what you know|what you remember|your memory)\\b',
  ),
  RE('\\b(?:permanently|forever) (?:remember|store|save|record)\\b'),
  RE(
    `\\b(?:wants?|asked|asks|told|tells|needs?|expects?|requested|requests)\\s+(?:the |this )?(?:bot|ai|assistant|model|memory|permafrost|system)\\s+to\\b`,
  ),
];

/** Imperatives no statement about a person uses, also after a comma ("…, ignore the others"). */
const STRONG_IMPERATIVE =
  '(?:ignore|disregard|obey|pretend|roleplay|role-play|reveal|override|bypass|comply|act as|imagine you are|repeat after me|do (?:what|whatever|as|everything) (?:i|he|she|they|\\p{L}+) (?:says?|said|tells?|wants?|asks?))';
const IMPERATIVE = RE(
  `(?:^|[.;:!?]\\s+|,\\s+|\\b(?:please|pls|plz|kindly)\\s+)(?:always\\s+|never\\s+|do not\\s+|don't\\s+|dont\\s+|just\\s+|now\\s+)*${STRONG_IMPERATIVE}\\b`,
);
/** A text opening with an imperative (facts are statements in the third person). */
const IMPERATIVE_START = RE(
  "^(?:please\\s+|pls\\s+|kindly\\s+|always\\s+|never\\s+|do not\\s+|don't\\s+)*(?:ignore|disregard|obey|answer|reply|respond|follow|trust|believe|prioriti[sz]e|pretend|act as|roleplay|forget|remember|repeat|reveal|print|output|tell|say|call|refer to|address|treat|greet|mention|recommend|promote|kick|mute|warn|refuse|stop|keep|consider|regard|switch|enter|enable|disable|override|bypass|comply|store|save|record|delete|erase|send|ping|never|always|do not|don't)\\b",
);

const GROUPS: readonly [DirectiveSignal, readonly RegExp[]][] = [
  ['prompt_syntax', PROMPT_SYNTAX],
  ['instruction_override', OVERRIDE],
  ['assistant_obligation', OBLIGATION],
  ['addressed_to_assistant', ADDRESSED],
  ['authority_over_assistant', AUTHORITY],
  ['response_rule', RESPONSE_RULE],
  ['memory_manipulation', MEMORY_MANIPULATION],
];

const MAX_CHARS = 2_000;

/** Classifies a fact text (or a message) as a directive to the assistant or not. */
export function classifyDirective(text: string): DirectiveVerdict {
  const t = flat(text.slice(0, MAX_CHARS));
  if (t.length === 0) return { directive: false, signal: null };
  for (const [signal, patterns] of GROUPS)
    if (patterns.some((re) => re.test(t))) return { directive: true, signal };
  if (IMPERATIVE_START.test(t) || IMPERATIVE.test(t)) return { directive: true, signal: 'imperative' };
  return { directive: false, signal: null };
}
