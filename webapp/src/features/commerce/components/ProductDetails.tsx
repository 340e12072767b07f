import { useTranslation } from "react-i18next";
import { formatPrice, type Product } from "@/entities/product";
import { useLocale } from "@/i18n/useLocalePath";
import { formatDate } from "../lib/format";

/** Price and currency, period, renewal and what a product unlocks (spec §3). */
export function ProductDetails({ product }: { product: Product }) {
  const { t } = useTranslation("commerce");
  const locale = useLocale();
  const period =
    product.duration && product.durationUnits
      ? t(`product.period.${product.durationUnits}`, { count: product.duration })
      : t("product.noPeriod");
  const unlocks =
    product.type === "ppv"
      ? t("product.unlocks.ppv")
      : product.type === "bundle"
        ? t("product.unlocks.bundle", { items: product.bundle?.items.map((item) => item.title).join(", ") || "-" })
        : product.type === "cvod"
          ? t("product.unlocks.cvod")
          : product.allowedAccessIdentityItems.length === 0
            ? // A subscription naming no league unlocks every league's matches.
              t("product.unlocks.svod_all")
            : t("product.unlocks.svod", { count: product.allowedAccessIdentityItems.length });
  return (
    <dl className="commerce-details">
      <div>
        <dt>{t("product.price")}</dt>
        <dd className="commerce-details__price">{formatPrice(product, locale)}</dd>
      </div>
      <div>
        <dt>{t("product.currency")}</dt>
        <dd>{product.currency}</dd>
      </div>
      <div>
        <dt>{t("product.periodLabel")}</dt>
        <dd>{period}</dd>
      </div>
      <div>
        <dt>{t("product.renewalLabel")}</dt>
        <dd>{product.renewable ? t("product.renews") : t("product.once")}</dd>
      </div>
      {product.bundle?.endDate && (
        <div>
          <dt>{t("product.until")}</dt>
          <dd>{formatDate(product.bundle.endDate, locale)}</dd>
        </div>
      )}
      <div>
        <dt>{t("product.unlocksLabel")}</dt>
        <dd>{unlocks}</dd>
      </div>
    </dl>
  );
}
