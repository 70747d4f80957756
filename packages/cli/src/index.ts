export const packageName = '@permafrost/cli';
