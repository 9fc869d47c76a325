/** The one place the deadline benchmark reads the planner's trace loaders and the reference data's folder. */
export { type DeadlineData, deadlineMarket, loadDeadlineData } from '../../planner/deadlines-data';
export { DEFAULT_DATA_DIR } from '../../shared/adapters/reference-data';
