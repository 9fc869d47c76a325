/** Time units the planner converts between; the domain works in milliseconds. */
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 24 * MS_PER_HOUR;
