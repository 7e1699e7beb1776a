/**
 * simple_publication_workflow (addendum §2): the states content goes through,
 * the transitions between them, and the permissions each state grants.
 */
import type { Permission, Role } from './model';

export interface WorkflowState {
  id: string;
  title: string;
  /** Permissions this state manages; the others follow the site-wide grants. */
  permissions: Partial<Record<Permission, readonly Role[]>>;
}

export interface WorkflowTransition {
  id: string;
  title: string;
  from: readonly string[];
  to: string;
  /** The caller needs this permission on the object to take the transition. */
  guard: Permission;
}

const EDITING: readonly Role[] = ['Manager', 'Site Administrator', 'Owner', 'Editor'];
const PRIVATE_VIEW: readonly Role[] = ['Manager', 'Site Administrator', 'Owner', 'Editor', 'Reader', 'Contributor'];
const PENDING_VIEW: readonly Role[] = [...PRIVATE_VIEW, 'Reviewer'];
const EVERYONE: readonly Role[] = ['Anonymous'];

export const SIMPLE_PUBLICATION_WORKFLOW = {
  id: 'simple_publication_workflow',
  initialState: 'private',
  states: {
    private: {
      id: 'private',
      title: 'Private',
      permissions: {
        View: PRIVATE_VIEW,
        'Access contents information': PRIVATE_VIEW,
        'Modify portal content': EDITING,
      },
    },
    pending: {
      id: 'pending',
      title: 'Pending review',
      permissions: {
        View: PENDING_VIEW,
        'Access contents information': PENDING_VIEW,
        'Modify portal content': ['Manager', 'Site Administrator', 'Reviewer'],
      },
    },
    published: {
      id: 'published',
      title: 'Published',
      permissions: {
        View: EVERYONE,
        'Access contents information': EVERYONE,
        // As the original: the owner and editors keep editing what they published.
        'Modify portal content': EDITING,
      },
    },
  } as Record<string, WorkflowState>,
  transitions: [
    { id: 'publish', title: 'Publish', from: ['private', 'pending'], to: 'published', guard: 'Review portal content' },
    { id: 'submit', title: 'Submit for publication', from: ['private'], to: 'pending', guard: 'Request review' },
    { id: 'retract', title: 'Retract', from: ['pending', 'published'], to: 'private', guard: 'Request review' },
    { id: 'reject', title: 'Send back', from: ['pending', 'published'], to: 'private', guard: 'Review portal content' },
  ] as readonly WorkflowTransition[],
};

export function workflowState(id: string): WorkflowState {
  const state = SIMPLE_PUBLICATION_WORKFLOW.states[id];
  if (!state) throw new Error(`unknown workflow state ${id}`);
  return state;
}

export function transitionsFrom(stateId: string): WorkflowTransition[] {
  return SIMPLE_PUBLICATION_WORKFLOW.transitions.filter((t) => t.from.includes(stateId));
}

export function findTransition(id: string): WorkflowTransition | undefined {
  return SIMPLE_PUBLICATION_WORKFLOW.transitions.find((t) => t.id === id);
}
