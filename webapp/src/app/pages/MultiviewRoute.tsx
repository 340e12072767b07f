import { Paywall } from "@/features/watching/event/Paywall";
import { MultiviewPage } from "@/features/watching/multiview/MultiviewPage";
// The paywall's own styles, beside the event page's (its class names are its own).
import "@/features/watching/event/EventView.css";

/**
 * /multiview: the watching feature's page, with the event page's paywall (its offers and purchase
 * links) in the tile of an event the viewer may not watch. The page is handed the paywall, as its
 * tests hand it one of their own.
 */
export default function MultiviewRoute() {
  return <MultiviewPage Paywall={Paywall} />;
}
