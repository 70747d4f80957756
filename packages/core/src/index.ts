export const packageName = '@permafrost/core';
