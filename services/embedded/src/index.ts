export { startSuite, type RunningSuite } from './suite';
