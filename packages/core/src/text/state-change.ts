/** Phrasing that announces a change of state (icelake's STATE_CHANGE set). */
export const STATE_CHANGE =
  /\b(?:quit|stopped|no longer|not anymore|anymore|never|(?:do|does|did)(?:n'?t| not)\b|moved|promoted|hired|fired|graduated|switched|left|broke up|divorced|retired|sold|relocated|gave up|given up)\b/i;
