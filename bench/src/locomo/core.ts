// The one place the harness imports the library from, so a move of the recall exports into the
// root entry point is a one-line change.
export * from '@permafrost/core';
export * from '@permafrost/core/recall';
