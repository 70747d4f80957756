/** The community batch key of a guild (and the subject key of server facts). */
export const SERVER_KEY = '__server__';
