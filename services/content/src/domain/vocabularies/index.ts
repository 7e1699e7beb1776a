/** Vocabularies and field sources: the terms select widgets offer (`@vocabularies`, `@sources`, `@querysources`). */
export * from './terms';
export * from './registry';
export * from './sources';
