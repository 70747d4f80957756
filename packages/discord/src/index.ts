export const packageName = '@permafrost/discord';
