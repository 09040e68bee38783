/** The build snapshot as the pages read it (src/integrations/storefront.ts makes this module). */
declare module 'virtual:luxe/build-snapshot' {
  /** The catalogue the pages render from (build-snapshot.ts). */
  export function currentCatalogue(): import('../domain/catalogue').CatalogueSnapshot;
  /** Notes what the page being rendered reads of the catalogue. */
  export function noteRead(read: import('./build-snapshot').CatalogueRead): void;
}
