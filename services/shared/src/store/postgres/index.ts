export { openPostgresStore, PostgresStore, type PostgresStoreOptions } from './store';
export { filterToSql, type FilterSqlOptions, type SqlCondition } from './filter-sql';
