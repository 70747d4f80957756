// The audience port of @permafrost/core, used by the Discord policy.
export type { Audience, AudienceGate, AudiencePolicy, SourceChannel } from '@permafrost/core';
