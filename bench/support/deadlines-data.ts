/** The one place the deadline benchmark reads the planner's trace loaders (repointed after the planner moves). */
export { deadlineMarket, loadDeadlineData } from '../../planner/deadlines-data';
export { DEFAULT_DATA_DIR } from '../../planner/paths';
