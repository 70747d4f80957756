export const packageName = '@permafrost/store-sqlite';
