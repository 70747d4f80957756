/** Regex fragments shared by several rule families. */

/** Optional adverbs between "i" and the verb: "i (currently|still|just …) live in". */
export const NOW = '(?:(?:currently|now|still|actually|also|just|recently|finally|officially|happily) )*';
