import { useId } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { accessOf, type CatalogEvent } from "@/entities/event";
import { formatPrice, type Product } from "@/entities/product";
import { splitLocalePath } from "@/i18n/locales";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useIsAuthenticated } from "@/session/store";
import { useCommerceOptions } from "../api/getCommerceOptions";
import { LockIcon } from "@/ui/catalog/icons";
import { useLogFailure } from "@/lib/useLogFailure";
import { choiceOf, forViewer, offeredProducts, purchasePath, redeemCodePath } from "./purchaseLinks";

function periodOf(product: Product, locale: string): string | null {
  if (!product.duration || !product.durationUnits) return null;
  const unit = product.durationUnits.replace(/s$/, "") as "hour" | "day" | "week" | "month" | "year";
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(product.duration);
}

function Offer({ product, to, primary }: { product: Product; to: string; primary: boolean }) {
  const { t, i18n } = useTranslation("event");
  const choice = choiceOf(product);
  const period = periodOf(product, i18n.language);
  const price = formatPrice(product, i18n.language);
  return (
    <li className="paywall__offer">
      <Link className={`btn${primary ? " btn--primary" : ""} paywall__action`} to={to}>
        {t(`paywall.${choice}`)}
        <span className="paywall__price">{price}</span>
      </Link>
      <span className="paywall__product" dir="auto">
        {product.title}
        {period && <span className="paywall__period"> · {t(`paywall.period_${choice}`, { period })}</span>}
      </span>
      {product.purchaseProcessing && <span className="paywall__processing">{t("paywall.processing")}</span>}
    </li>
  );
}

/**
 * What a viewer who may not watch sees in place of the player (spec §6): why, and each way to
 * watch (this match, a bundle, a subscription, an access code) leading into the purchase pages,
 * or that the event is not available in their region. The commerce options answer is personal;
 * one that fails to load leaves only the code and sign-in (spec §8).
 */
export function Paywall({ event }: { event: CatalogEvent }) {
  const { t } = useTranslation("event");
  const localePath = useLocalePath();
  const { pathname, search } = useLocation();
  const signedIn = useIsAuthenticated();
  const headingId = useId();
  const access = accessOf(event);
  const blocked = access.kind === "region";
  const options = useCommerceOptions(event.id, !blocked && !event.isClip);
  useLogFailure(options.error, "Commerce options");

  const regionBlocked = blocked || options.data?.availableInUserRegion === false;
  const returnTo = splitLocalePath(pathname).path + search;
  const products = offeredProducts(options.data?.products ?? [], event.id);
  const link = (target: string) => localePath(forViewer(target, signedIn));

  if (regionBlocked) {
    return (
      <section className="paywall paywall--blocked" aria-labelledby={headingId}>
        <p id={headingId} className="paywall__title">
          <LockIcon /> {t("paywall.region_title")}
        </p>
        <p className="paywall__reason">{t("paywall.region")}</p>
      </section>
    );
  }
  const via = access.kind === "locked" ? access.via : "purchase";
  return (
    <section className="paywall" aria-labelledby={headingId} aria-busy={options.isLoading}>
      {/* Not a heading: it comes before the page's title (the player's place), which is the h1. */}
      <p id={headingId} className="paywall__title">
        <LockIcon /> {t("paywall.title")}
      </p>
      <p className="paywall__reason">{t(`paywall.reason_${via}`)}</p>
      {via === "members" && !signedIn ? null : (
        <ul className="paywall__offers">
          {products.map((product, index) => (
            <Offer
              key={product.id}
              product={product}
              primary={index === 0}
              to={link(purchasePath(product, event.id, returnTo))}
            />
          ))}
          <li className="paywall__offer">
            <Link className="btn btn--ghost paywall__action" to={link(redeemCodePath(returnTo))}>
              {t("paywall.code")}
            </Link>
          </li>
        </ul>
      )}
      {!signedIn && (
        <p className="paywall__sign-in">
          <Link
            className={via === "members" ? "btn btn--primary" : undefined}
            to={localePath(`/auth/login/?redirect=${encodeURIComponent(returnTo)}`)}
          >
            {t(via === "members" ? "paywall.members_sign_in" : "paywall.sign_in")}
          </Link>
        </p>
      )}
    </section>
  );
}
