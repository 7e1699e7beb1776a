/**
 * The query builder's configuration (`@querystring`): the indexes it offers, the operators each takes, and
 * the operators' descriptions. Operator ids use the neutral `cms.app.querystring.operation.` prefix; the
 * original `plone.app.querystring.operation.` names are accepted on input as aliases (addendum §8).
 */

/** What every date index can be asked. */
const DATE_OPERATIONS = [
  'date.lessThan',
  'date.largerThan',
  'date.between',
  'date.lessThanRelativeDate',
  'date.largerThanRelativeDate',
  'date.today',
  'date.beforeToday',
  'date.afterToday',
  'date.beforeRelativeDate',
  'date.afterRelativeDate',
];

export const OPERATION_PREFIX = 'cms.app.querystring.operation.';
const ALIAS_PREFIX = 'plone.app.querystring.operation.';
/** Prefix of the dotted implementation names shown in `operators[*].operation`. */
const IMPLEMENTATION_PREFIX = 'cms.app.querystring.queryparser.';

export interface OperatorDef {
  title: string;
  description: string | null;
  operation: string;
  widget: string | null;
}

export interface QuerystringIndexDef {
  title: string;
  description: string;
  enabled: boolean;
  sortable: boolean;
  group: 'Metadata' | 'Text' | 'Dates';
  vocabulary: string | null;
  /** Operator id suffixes, after OPERATION_PREFIX. */
  operations: string[];
}

/** The query-builder operators: id suffix → title, description, implementation name suffix, widget. */
export const OPERATORS: Readonly<Record<string, OperatorDef>> = {
  'boolean.isFalse': { title: 'No', description: null, operation: '_isFalse', widget: null },
  'boolean.isTrue': { title: 'Yes', description: null, operation: '_isTrue', widget: null },
  'date.afterRelativeDate': {
    title: 'After relative Date',
    description: 'After N days in the future',
    operation: '_afterRelativeDate',
    widget: 'RelativeDateWidget',
  },
  'date.afterToday': {
    title: 'After today',
    description: 'After the current day',
    operation: '_afterToday',
    widget: null,
  },
  'date.beforeRelativeDate': {
    title: 'Before relative Date',
    description: 'Before N days in the past',
    operation: '_beforeRelativeDate',
    widget: 'RelativeDateWidget',
  },
  'date.beforeToday': {
    title: 'Before today',
    description: 'Before the current day',
    operation: '_beforeToday',
    widget: null,
  },
  'date.between': {
    title: 'Between dates',
    description: 'Please use YYYY/MM/DD.',
    operation: '_dateBetween',
    widget: 'DateRangeWidget',
  },
  'date.largerThan': {
    title: 'After date',
    description: 'Please use YYYY/MM/DD.',
    operation: '_dateLargerThan',
    widget: 'DateWidget',
  },
  'date.largerThanRelativeDate': {
    title: 'Within last',
    description: 'Please enter the number in days.',
    operation: '_moreThanRelativeDate',
    widget: 'RelativeDateWidget',
  },
  'date.lessThan': {
    title: 'Before date',
    description: 'Please use YYYY/MM/DD.',
    operation: '_dateLessThan',
    widget: 'DateWidget',
  },
  'date.lessThanRelativeDate': {
    title: 'Within next',
    description: 'Please enter the number in days.',
    operation: '_lessThanRelativeDate',
    widget: 'RelativeDateWidget',
  },
  'date.today': { title: 'Today', description: 'The current day', operation: '_today', widget: null },
  'int.is': { title: 'Equals', description: null, operation: '_intEqual', widget: 'StringWidget' },
  'int.largerThan': { title: 'Larger than', description: null, operation: '_intLargerThan', widget: 'StringWidget' },
  'int.lessThan': { title: 'Less than', description: null, operation: '_intLessThan', widget: 'StringWidget' },
  'reference.is': { title: 'Equals', description: null, operation: '_referenceIs', widget: 'ReferenceWidget' },
  'selection.all': {
    title: 'Matches all of',
    description: 'Tip: you can use * to autocomplete.',
    operation: '_all',
    widget: 'MultipleSelectionWidget',
  },
  'selection.any': {
    title: 'Matches any of',
    description: 'Tip: you can use * to autocomplete.',
    operation: '_contains',
    widget: 'MultipleSelectionWidget',
  },
  'selection.none': {
    title: 'Matches none of',
    description: 'Tip: you can use * to autocomplete.',
    operation: '_excludes',
    widget: 'MultipleSelectionWidget',
  },
  'string.absolutePath': {
    title: 'Absolute path',
    description: 'Location in the site structure',
    operation: '_absolutePath',
    widget: 'ReferenceWidget',
  },
  'string.contains': { title: 'Contains', description: null, operation: '_contains', widget: 'StringWidget' },
  'string.currentUser': {
    title: 'Current logged in user',
    description: 'The user viewing the querystring results',
    operation: '_currentUser',
    widget: null,
  },
  'string.is': {
    title: 'Is',
    description: 'Tip: you can use * to autocomplete.',
    operation: '_equal',
    widget: 'StringWidget',
  },
  'string.isNot': {
    title: 'Is not',
    description: 'Tip: you can use * to autocomplete.',
    operation: '_excludes',
    widget: 'StringWidget',
  },
  'string.path': {
    title: 'Navigation path',
    description: 'Location in the navigation structure',
    operation: '_navigationPath',
    widget: 'ReferenceWidget',
  },
  'string.relativePath': {
    title: 'Relative path',
    description: "Use '../' to navigate to parent objects.",
    operation: '_relativePath',
    widget: 'RelativePathWidget',
  },
  'string.showInactive': {
    title: 'Show Inactive',
    description: 'The user roles which are allowed to see inactive content',
    operation: '_showInactive',
    widget: 'MultipleSelectionWidget',
  },
};

/** The indexes the query builder offers (`@querystring`). */
export const QUERYSTRING_INDEXES: Readonly<Record<string, QuerystringIndexDef>> = {
  Creator: {
    title: 'Creator',
    description: 'The person that created an item',
    enabled: true,
    sortable: true,
    group: 'Metadata',
    vocabulary: 'cms.app.vocabularies.Users',
    operations: ['string.currentUser', 'selection.any', 'selection.none'],
  },
  Description: {
    title: 'Description',
    description: "An item's description",
    enabled: true,
    sortable: false,
    group: 'Text',
    vocabulary: null,
    operations: ['string.contains'],
  },
  SearchableText: {
    title: 'Searchable text',
    description: "Text search of an item's contents",
    enabled: true,
    sortable: false,
    group: 'Text',
    vocabulary: null,
    operations: ['string.contains'],
  },
  Subject: {
    title: 'Tag',
    description: 'Tags are used for organization of content',
    enabled: true,
    sortable: false,
    group: 'Text',
    vocabulary: 'cms.app.vocabularies.Keywords',
    operations: ['selection.any', 'selection.all', 'selection.none'],
  },
  Title: {
    title: 'Title',
    description: "Text search of an item's title",
    enabled: true,
    sortable: false,
    group: 'Text',
    vocabulary: null,
    operations: ['string.contains'],
  },
  created: {
    title: 'Creation date',
    description: 'The date an item was created',
    enabled: true,
    sortable: true,
    group: 'Dates',
    vocabulary: null,
    operations: DATE_OPERATIONS,
  },
  effective: {
    title: 'Effective date',
    description: 'The time and date an item was first published',
    enabled: true,
    sortable: true,
    group: 'Dates',
    vocabulary: null,
    operations: DATE_OPERATIONS,
  },
  effectiveRange: {
    title: 'Effective range',
    description: 'Querying this is undefined',
    enabled: false,
    sortable: false,
    group: 'Dates',
    vocabulary: null,
    operations: [],
  },
  end: {
    title: 'Event end date',
    description: 'The end date and time of an event',
    enabled: true,
    sortable: true,
    group: 'Dates',
    vocabulary: null,
    operations: DATE_OPERATIONS,
  },
  expires: {
    title: 'Expiration date',
    description: 'The time and date an item was expired',
    enabled: true,
    sortable: true,
    group: 'Dates',
    vocabulary: null,
    operations: DATE_OPERATIONS,
  },
  getId: {
    title: 'Short name (id)',
    description: 'The short name of an item (used in the url)',
    enabled: true,
    sortable: true,
    group: 'Metadata',
    vocabulary: null,
    operations: ['string.is', 'string.isNot'],
  },
  getObjPositionInParent: {
    title: 'Order in folder',
    description: 'The order of an item in its parent folder',
    enabled: false,
    sortable: true,
    group: 'Metadata',
    vocabulary: null,
    operations: ['int.is', 'int.lessThan', 'int.largerThan'],
  },
  getRawRelatedItems: {
    title: 'Related To',
    description: 'Find items related to the selected items',
    enabled: false,
    sortable: false,
    group: 'Metadata',
    vocabulary: null,
    operations: ['reference.is'],
  },
  isDefaultPage: {
    title: 'Default Page',
    description: 'Find items that are the default view for their containing folder.',
    enabled: false,
    sortable: false,
    group: 'Metadata',
    vocabulary: null,
    operations: ['boolean.isTrue', 'boolean.isFalse'],
  },
  isFolderish: {
    title: 'Folder-like',
    description: 'Find items that can contain other objects',
    enabled: false,
    sortable: false,
    group: 'Metadata',
    vocabulary: null,
    operations: ['boolean.isTrue', 'boolean.isFalse'],
  },
  modified: {
    title: 'Modification date',
    description: 'The time and date an item was last modified',
    enabled: true,
    sortable: true,
    group: 'Dates',
    vocabulary: null,
    operations: DATE_OPERATIONS,
  },
  path: {
    title: 'Location',
    description: 'The location of an item',
    enabled: true,
    sortable: false,
    group: 'Metadata',
    vocabulary: null,
    operations: ['string.absolutePath', 'string.path', 'string.relativePath'],
  },
  portal_type: {
    title: 'Type',
    description: "An item's type (e.g. Event)",
    enabled: true,
    sortable: false,
    group: 'Metadata',
    vocabulary: 'cms.app.vocabularies.ReallyUserFriendlyTypes',
    operations: ['selection.any', 'selection.none'],
  },
  review_state: {
    title: 'Review state',
    description: "An item's workflow state (e.g.published)",
    enabled: true,
    sortable: true,
    group: 'Metadata',
    vocabulary: 'cms.app.vocabularies.WorkflowStates',
    operations: ['selection.any', 'selection.none'],
  },
  show_inactive: {
    title: 'Show Inactive',
    description: 'Select which roles have the permission to view inactive objects',
    enabled: true,
    sortable: false,
    group: 'Metadata',
    vocabulary: 'cms.app.vocabularies.Roles',
    operations: ['string.showInactive'],
  },
  sortable_title: {
    title: 'Sortable Title',
    description: "The item's title, transformed for sorting",
    enabled: false,
    sortable: true,
    group: 'Text',
    vocabulary: null,
    operations: ['string.contains', 'string.is', 'string.isNot'],
  },
  start: {
    title: 'Event start date',
    description: 'The start date and time of an event',
    enabled: true,
    sortable: true,
    group: 'Dates',
    vocabulary: null,
    operations: DATE_OPERATIONS,
  },
};

/** The operator suffix an id names (neutral or original prefix), or null when it is not an operator id. */
export function operatorSuffix(id: string): string | null {
  const suffix = id.startsWith(OPERATION_PREFIX)
    ? id.slice(OPERATION_PREFIX.length)
    : id.startsWith(ALIAS_PREFIX)
      ? id.slice(ALIAS_PREFIX.length)
      : null;
  return suffix !== null && Object.prototype.hasOwnProperty.call(OPERATORS, suffix) ? suffix : null;
}

/** Vocabulary terms inlined in `values`, by vocabulary name: token → `{title}`. */
export type VocabularyValues = Readonly<Record<string, Record<string, { title: string }>>>;

/** The `indexes` and `sortable_indexes` members of `@querystring`. */
export function querystringIndexes(values: VocabularyValues) {
  const indexes: Record<string, unknown> = {};
  const sortable: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(QUERYSTRING_INDEXES)) {
    const operators: Record<string, OperatorDef> = {};
    for (const op of def.operations) {
      const { operation, ...rest } = OPERATORS[op];
      operators[OPERATION_PREFIX + op] = { ...rest, operation: IMPLEMENTATION_PREFIX + operation };
    }
    const index = {
      description: def.description,
      enabled: def.enabled,
      fetch_vocabulary: true,
      group: def.group,
      operations: def.operations.map((op) => OPERATION_PREFIX + op),
      operators,
      sortable: def.sortable,
      title: def.title,
      values: (def.vocabulary && values[def.vocabulary]) || {},
      vocabulary: def.vocabulary,
    };
    indexes[name] = index;
    if (def.sortable) sortable[name] = index;
  }
  return { indexes, sortable_indexes: sortable };
}
