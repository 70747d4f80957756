export {
  type Check,
  GUILD,
  MEMBERS,
  renderChecks,
  runSimulation,
  type SimulationOptions,
  type SimulationResult,
} from './simulation.js';
