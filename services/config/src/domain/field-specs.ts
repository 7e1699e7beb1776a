/** The kinds of field a registry record has (records.ts defines the records, panel-records.ts the panels'). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface FieldBase {
  title: string;
  description: string;
  /** The field's own default, shown as `default` in its definition; a record may start with another value. */
  default?: JsonValue;
  /** False when the value may be null (the field may be left empty). Default true. */
  required?: boolean;
}

export interface TextFieldSpec extends FieldBase {
  /** `Text line (String)` is one line; `Text` may have several; `Email` is an e-mail address. */
  factory: 'Text line (String)' | 'Text' | 'Email';
  minLength?: number;
  maxLength?: number;
}

export interface BoolFieldSpec extends FieldBase {
  factory: 'Yes/No';
}

export interface IntegerFieldSpec extends FieldBase {
  factory: 'Integer';
  min?: number;
  max?: number;
}

/**
 * A choice from a named vocabulary (served at `@vocabularies/<name>`): one of `tokens` when they are known
 * here, any single line when the vocabulary lives in another service (types, workflow states, scales).
 */
export interface VocabularyChoiceSpec extends FieldBase {
  factory: 'Choice';
  vocabulary: string;
  tokens?: readonly string[];
}

/** A choice from terms listed inline, shown as `enum`, `enumNames` and `choices`. */
export interface InlineChoiceSpec extends FieldBase {
  factory: 'Choice';
  /** `[token, title]` pairs. */
  terms: readonly (readonly [string, string])[];
}

export interface CollectionFieldSpec extends FieldBase {
  /** `List` (ordered, duplicates allowed unless its items are choices), `Tuple` and `Multiple Choice` (unique). */
  factory: 'List' | 'Tuple' | 'Multiple Choice';
  items: FieldSpec;
  minItems?: number;
  maxItems?: number;
}

export type FieldSpec =
  TextFieldSpec | BoolFieldSpec | IntegerFieldSpec | VocabularyChoiceSpec | InlineChoiceSpec | CollectionFieldSpec;
