/**
 * The actions and conditions a content rule is made of: their form schemas (as the specification lists them),
 * the validation of their fields and the one-line summary a rule shows for each.
 */
import { z } from 'zod';

export type ElementKind = 'action' | 'condition';

export interface ElementType {
  /** The `addview` (and `type` on input), e.g. `cms.actions.Move`. */
  id: string;
  title: string;
  description: string;
  /** Property name → JSON schema, in form order. */
  properties: (publicUrl: string) => Record<string, Record<string, unknown>>;
  required: string[];
  fields: z.ZodType<Record<string, unknown>>;
  summary: (values: Record<string, unknown>) => string;
  /** Whether the element has an edit form (Delete has none). */
  editable: boolean;
}

const TEXT = 2000;
const line = (title: string, description: string, extra: Record<string, unknown> = {}) => ({
  description,
  factory: 'Text line (String)',
  title,
  type: 'string',
  ...extra,
});
const choice = (title: string, description: string, vocabulary: string) => ({
  description,
  factory: 'Choice',
  title,
  type: 'string',
  vocabulary: { '@id': vocabulary },
});
const multiple = (title: string, description: string, vocabulary: string) => ({
  additionalItems: true,
  description,
  factory: 'Multiple Choice',
  items: { description: '', factory: 'Choice', title: '', type: 'string', vocabulary: { '@id': vocabulary } },
  title,
  type: 'array',
  uniqueItems: true,
});
const vocabulary = (publicUrl: string, name: string) => `${publicUrl}/@vocabularies/cms.app.vocabularies.${name}`;
const names = z.array(z.string().min(1).max(200)).max(100);
const text = z.string().max(TEXT);
const folder = z.string().min(1).max(TEXT);
const list = (values: unknown) => (Array.isArray(values) ? values.join(', ') : '');

const targetFolder = (publicUrl: string) => ({
  target_folder: {
    description: 'As a path relative to the portal root.',
    factory: 'Choice',
    title: 'Target folder',
    type: 'string',
    vocabulary: { '@id': `${publicUrl}/@sources/target_folder` },
  },
});

export const ACTION_TYPES: ElementType[] = [
  {
    id: 'cms.actions.Logger',
    title: 'Logger',
    description: 'Log a particular event',
    properties: () => ({
      targetLogger: line('Logger name', '', { default: 'CMS' }),
      loggingLevel: { default: 20, description: '', factory: 'Integer', title: 'Logging level', type: 'integer' },
      message: line('Message', '&e = the triggering event, &c = the context, &u = the user', {
        default: 'Caught &e at &c by &u',
      }),
    }),
    required: ['targetLogger', 'loggingLevel', 'message'],
    fields: z.object({ targetLogger: z.string().min(1).max(200), loggingLevel: z.number().int(), message: text }),
    summary: (v) => `Log message ${String(v.message)}`,
    editable: true,
  },
  {
    id: 'cms.actions.Notify',
    title: 'Notify user',
    description: 'Return a portal message to the user',
    properties: (publicUrl) => ({
      message: line('Message', 'The message to send to the user.'),
      message_type: {
        choices: [
          ['info', null],
          ['warning', null],
          ['error', null],
        ],
        default: 'info',
        description: 'Select the type of message to display.',
        enum: ['info', 'warning', 'error'],
        enumNames: [null, null, null],
        factory: 'Choice',
        title: 'Message type',
        type: 'string',
        vocabulary: { '@id': `${publicUrl}/@sources/message_type` },
      },
    }),
    required: ['message', 'message_type'],
    fields: z.object({ message: text, message_type: z.enum(['info', 'warning', 'error']) }),
    summary: (v) => `Notify with message ${String(v.message)}`,
    editable: true,
  },
  {
    id: 'cms.actions.Copy',
    title: 'Copy to folder',
    description: 'Copy the triggering item to a specific folder',
    properties: targetFolder,
    required: ['target_folder'],
    fields: z.object({ target_folder: folder }),
    summary: (v) => `Copy to folder ${String(v.target_folder)}.`,
    editable: true,
  },
  {
    id: 'cms.actions.Move',
    title: 'Move to folder',
    description: 'Move the triggering item to a specific folder',
    properties: targetFolder,
    required: ['target_folder'],
    fields: z.object({ target_folder: folder }),
    summary: (v) => `Move to folder ${String(v.target_folder)}`,
    editable: true,
  },
  {
    id: 'cms.actions.Delete',
    title: 'Delete object',
    description: 'Delete the triggering item',
    properties: () => ({}),
    required: [],
    fields: z.object({}),
    summary: () => 'Delete object',
    editable: false,
  },
  {
    id: 'cms.actions.Workflow',
    title: 'Transition workflow state',
    description: 'Perform a workflow transition on the triggering object',
    properties: (publicUrl) => ({
      transition: choice(
        'Transition',
        'Select the workflow transition to attempt',
        vocabulary(publicUrl, 'WorkflowTransitions'),
      ),
    }),
    required: ['transition'],
    fields: z.object({ transition: z.string().min(1).max(200) }),
    summary: (v) => `Execute transition ${String(v.transition)}`,
    editable: true,
  },
  {
    id: 'cms.actions.Mail',
    title: 'Send email',
    description: 'Send an email on the triggering object',
    properties: () => ({
      subject: line('Subject', 'Subject of the message'),
      source: line(
        'Email source',
        'The email address that sends the email. If no email is provided here, it will use the portal from address.',
      ),
      recipients: line(
        'Email recipients',
        'The email where you want to send this message. To send it to different email addresses, just separate them with ,',
      ),
      exclude_actor: {
        description: 'Do not send the email to the user that did the action.',
        factory: 'Yes/No',
        title: 'Exclude actor from recipients',
        type: 'boolean',
      },
      message: {
        description: 'The message that you want to mail.',
        factory: 'Text',
        title: 'Message',
        type: 'string',
        widget: 'textarea',
      },
    }),
    // As the specification lists them (one transcript leaves exclude_actor out).
    required: ['subject', 'recipients', 'exclude_actor', 'message'],
    fields: z.object({
      subject: z.string().max(500),
      source: z.string().max(500).optional(),
      recipients: z.string().min(1).max(TEXT),
      exclude_actor: z.boolean(),
      message: z.string().max(20_000),
    }),
    summary: (v) => `Email report to ${String(v.recipients)}`,
    editable: true,
  },
  {
    id: 'cms.actions.Versioning',
    title: 'Version object',
    description: 'Store a new version of the object',
    properties: () => ({
      comment: line('Comment', 'The comment added to the history while versioning the content.'),
    }),
    required: [],
    fields: z.object({ comment: text.optional() }),
    summary: (v) => `Versioning with comment ${String(v.comment ?? '')}`,
    editable: true,
  },
];

export const CONDITION_TYPES: ElementType[] = [
  {
    id: 'cms.conditions.PortalType',
    title: 'Content type',
    description: 'Apply only when the current content object is of a particular type',
    properties: (publicUrl) => ({
      check_types: multiple(
        'Content type',
        'The content type to check for.',
        vocabulary(publicUrl, 'ReallyUserFriendlyTypes'),
      ),
    }),
    required: ['check_types'],
    fields: z.object({ check_types: names }),
    summary: (v) => `Content types are: ${list(v.check_types)}`,
    editable: true,
  },
  {
    id: 'cms.conditions.FileExtension',
    title: 'File Extension',
    description: 'Apply only to a particular file extension',
    properties: () => ({ file_extension: line('File extension', 'The file extension to check for') }),
    required: ['file_extension'],
    fields: z.object({ file_extension: z.string().min(1).max(50) }),
    summary: (v) => `File extension is ${String(v.file_extension)}`,
    editable: true,
  },
  {
    id: 'cms.conditions.WorkflowState',
    title: 'Workflow state',
    description: 'Apply only to a objects in a particular workflow state',
    properties: (publicUrl) => ({
      wf_states: multiple(
        'Workflow state',
        'The workflow states to check for.',
        vocabulary(publicUrl, 'WorkflowStates'),
      ),
    }),
    required: ['wf_states'],
    fields: z.object({ wf_states: names }),
    summary: (v) => `Workflow states are: ${list(v.wf_states)}`,
    editable: true,
  },
  {
    id: 'cms.conditions.Group',
    title: "User's group",
    description: 'Apply only when the current user is in the given group',
    properties: (publicUrl) => ({
      group_names: multiple('Group name', 'The name of the group.', vocabulary(publicUrl, 'Groups')),
    }),
    required: ['group_names'],
    fields: z.object({ group_names: names }),
    summary: (v) => `Groups are: ${list(v.group_names)}`,
    editable: true,
  },
  {
    id: 'cms.conditions.Role',
    title: "User's role",
    description: 'Apply only when the current user has the given role',
    properties: (publicUrl) => ({
      role_names: multiple('Roles', 'The roles to check for.', vocabulary(publicUrl, 'Roles')),
    }),
    required: ['role_names'],
    fields: z.object({ role_names: names }),
    summary: (v) => `Roles are: ${list(v.role_names)}`,
    editable: true,
  },
];

export function elementTypes(kind: ElementKind): ElementType[] {
  return kind === 'action' ? ACTION_TYPES : CONDITION_TYPES;
}

export function findElementType(kind: ElementKind, id: string): ElementType | undefined {
  return elementTypes(kind).find((t) => t.id === id);
}

/** The form schema of an element type, as `addable_*` and a stored element's GET show it. */
export function elementSchema(type: ElementType, publicUrl: string): Record<string, unknown> {
  const properties = type.properties(publicUrl);
  const fields = Object.keys(properties);
  return {
    fieldsets: fields.length === 0 ? [] : [{ behavior: 'cms', fields, id: 'default', title: 'Default' }],
    properties,
    required: type.required,
    type: 'object',
  };
}

export function addable(kind: ElementKind, publicUrl: string) {
  return elementTypes(kind).map((type) => ({
    '@schema': elementSchema(type, publicUrl),
    addview: type.id,
    description: type.description,
    title: type.title,
  }));
}
