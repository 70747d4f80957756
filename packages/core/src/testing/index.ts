export { FixedClock, sequentialIds } from './fixed-clock.js';
