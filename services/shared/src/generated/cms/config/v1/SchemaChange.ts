// Original file: proto/cms/config/v1/config.proto

export const SchemaChange = {
  SCHEMA_CHANGE_UNSPECIFIED: 'SCHEMA_CHANGE_UNSPECIFIED',
  SCHEMA_CHANGE_ADD: 'SCHEMA_CHANGE_ADD',
  SCHEMA_CHANGE_UPDATE: 'SCHEMA_CHANGE_UPDATE',
  SCHEMA_CHANGE_REPLACE: 'SCHEMA_CHANGE_REPLACE',
  SCHEMA_CHANGE_REMOVE: 'SCHEMA_CHANGE_REMOVE',
} as const;

export type SchemaChange =
  | 'SCHEMA_CHANGE_UNSPECIFIED'
  | 0
  | 'SCHEMA_CHANGE_ADD'
  | 1
  | 'SCHEMA_CHANGE_UPDATE'
  | 2
  | 'SCHEMA_CHANGE_REPLACE'
  | 3
  | 'SCHEMA_CHANGE_REMOVE'
  | 4

export type SchemaChange__Output = typeof SchemaChange[keyof typeof SchemaChange]
