export const packageName = '@permafrost/store-conformance';
