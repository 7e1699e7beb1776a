export { openSqliteStore, SqliteStore, sqliteFileOf, sqliteStoreOf } from './store';
