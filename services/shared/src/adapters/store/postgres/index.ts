export { openPostgresStore, PostgresStore, postgresStoreOf, type PostgresStoreOptions } from './store';
export { filterToSql, type FilterSqlOptions, type SqlCondition } from './filter-sql';
