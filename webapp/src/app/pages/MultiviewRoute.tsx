import { Paywall } from "@/features/catalog/event/Paywall";
import { MultiviewPage } from "@/features/watching/multiview/MultiviewPage";
// The paywall's own styles, beside the event page's (its class names are its own).
import "@/features/catalog/event/EventView.css";

/**
 * /multiview: the watching feature's page, with the catalogue's paywall (the event page's own, its
 * offers and purchase links) in the tile of an event the viewer may not watch. Features never
 * import each other: the app brings the two together here.
 */
export default function MultiviewRoute() {
  return <MultiviewPage Paywall={Paywall} />;
}
