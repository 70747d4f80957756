export const packageName = '@permafrost/store-mongo';
