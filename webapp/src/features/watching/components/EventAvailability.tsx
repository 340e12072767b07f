import { useTranslation } from "react-i18next";
import { accessOf, type CatalogEvent } from "@/entities/event";
import { formatPrice, type CommerceOptions, type Product } from "@/entities/product";
import { useCommerceOptions } from "../api/getCommerceOptions";
import { useLogFailure } from "@/lib/useLogFailure";
import { LockIcon } from "@/ui/catalog/icons";
import "./EventAvailability.css";

function ProductLine({ product }: { product: Product }) {
  const { t, i18n } = useTranslation("catalog");
  return (
    <li className="event-availability__product">
      <span className="event-availability__product-title">{product.title}</span>
      <span className="event-availability__product-type">{t(`product.${product.type}`)}</span>
      <span className="event-availability__price">{formatPrice(product, i18n.language)}</span>
      {product.active && <span className="event-availability__owned">{t("product.active")}</span>}
      {product.purchaseProcessing && <span className="event-availability__owned">{t("product.processing")}</span>}
      {!product.availableInUserRegion && <span className="event-availability__unavailable">{t("access.region")}</span>}
    </li>
  );
}

/**
 * Whether the viewer may watch: free, included in what they hold, needs a purchase (with the
 * products and prices that unlock it), or not available in their region. The commerce options
 * answer is personalised and wins over the event's own flags once it arrives. Signing in is
 * offered by the paywall above it, once.
 */
export function EventAvailability({ event }: { event: CatalogEvent }) {
  const { t } = useTranslation("catalog");
  const options = useCommerceOptions(event.id, !event.isClip);
  useLogFailure(options.error, "Commerce options");
  const merged = mergeAccess(event, options.data);
  const access = accessOf(merged);
  const products = options.data?.products ?? [];

  if (access.kind === "available") {
    const free = event.commerceType === "commerce_free_media" || merged.commerceCoverage.includes("free");
    return (
      <section className="event-availability event-availability--ok" aria-label={t("availability.label")}>
        <p className="event-availability__status">{free ? t("availability.free") : t("availability.included")}</p>
      </section>
    );
  }
  if (access.kind === "region") {
    return (
      <section className="event-availability event-availability--blocked" aria-label={t("availability.label")}>
        <p className="event-availability__status">
          <LockIcon /> {t("availability.region")}
        </p>
      </section>
    );
  }
  return (
    <section className="event-availability event-availability--locked" aria-label={t("availability.label")}>
      <p className="event-availability__status">
        <LockIcon /> {t("availability.purchase")}
      </p>
      {products.length > 0 && (
        <>
          <p className="event-availability__hint">{t("availability.options")}</p>
          <ul className="event-availability__products">
            {products.map((product) => (
              <ProductLine key={product.id} product={product} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function mergeAccess(event: CatalogEvent, options: CommerceOptions | undefined): CatalogEvent {
  if (!options) return event;
  return {
    ...event,
    isAvailableForUser: options.availableForUser,
    isAvailableInUserRegion: options.availableInUserRegion,
    commerceCoverage: options.commerceCoverage,
  };
}
