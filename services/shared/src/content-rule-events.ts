/**
 * The events a content rule may be triggered by (token → title), as the `cms.contentrules.events` vocabulary lists
 * them: config runs rules on them, content serves the vocabulary.
 */
export const RULE_EVENTS: ReadonlyArray<readonly [string, string]> = [
  ['cms.app.discussion.interfaces.ICommentAddedEvent', 'Comment added'],
  ['cms.app.discussion.interfaces.ICommentRemovedEvent', 'Comment removed'],
  ['zope.lifecycleevent.interfaces.IObjectAddedEvent', 'Object added to this container'],
  ['zope.lifecycleevent.interfaces.IObjectCopiedEvent', 'Object copied'],
  ['zope.lifecycleevent.interfaces.IObjectModifiedEvent', 'Object modified'],
  ['zope.lifecycleevent.interfaces.IObjectMovedEvent', 'Object moved'],
  ['zope.lifecycleevent.interfaces.IObjectRemovedEvent', 'Object removed'],
  ['cms.app.iterate.interfaces.ICheckinEvent', 'Working copy checked in'],
  ['cms.app.iterate.interfaces.ICheckoutEvent', 'Working copy checked out'],
  ['Products.CMFCore.interfaces.IActionSucceededEvent', 'Workflow state changed'],
  ['Products.PluggableAuthService.interfaces.events.IUserLoggedInEvent', 'User logged in'],
  ['Products.PlonePAS.events.UserLoggedOutEvent', 'User logged out'],
  ['Products.PluggableAuthService.interfaces.events.IPrincipalCreatedEvent', 'User created'],
  ['Products.PluggableAuthService.interfaces.events.IPrincipalDeletedEvent', 'User removed'],
];
