import { Link, useParams, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { formatPrice } from "@/entities/product";
import { useErrorText } from "@/api/errors";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { useEventProducts, usePurchase } from "../api/purchases";
import { Checkout } from "../components/Checkout";
import { AccountSection, Loading } from "../components/Section";
import { formatDate } from "../lib/format";
import { safeReturnPath } from "../lib/paths";

/**
 * /account/ppv/:id. From the event page's paywall (`?product=`) the id is the event's and the page
 * buys that product (a pay-per-view of the event); without `product` the id is a purchase's and
 * the page is its receipt (the id get_ppv_purchase takes).
 */
export default function PpvPage() {
  const { id = "" } = useParams();
  const [search] = useSearchParams();
  const productId = search.get("product");
  return productId ? (
    <BuyPpv eventId={id} productId={productId} redirect={safeReturnPath(search.get("redirect"))} />
  ) : (
    <Receipt purchaseId={id} />
  );
}

function BuyPpv({ eventId, productId, redirect }: { eventId: string; productId: string; redirect: string | null }) {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const options = useEventProducts(eventId);
  const product = options.data?.products.find((item) => item.id === productId);
  const back = redirect ?? `/events/${eventId}`;
  return (
    <AccountSection title={t("ppv.buyTitle")}>
      {options.isPending ? (
        <Loading label={t("loading")} />
      ) : options.isError ? (
        <FormAlert tone="danger">{errorText(options.error)}</FormAlert>
      ) : !product ? (
        <FormAlert tone="danger">{t("ppv.productMissing")}</FormAlert>
      ) : options.data.availableForUser && !product.purchaseProcessing ? (
        <FormAlert tone="info">{t("checkout.alreadyHeld")}</FormAlert>
      ) : (
        <Checkout
          product={product}
          order={
            product.type === "ppv"
              ? { kind: "ppv", eventId, productId: product.id }
              : { kind: "subscription", productId: product.id }
          }
          redirect={back}
        />
      )}
      <Link to={localePath(back)}>{t("ppv.backToEvent")}</Link>
    </AccountSection>
  );
}

function Receipt({ purchaseId }: { purchaseId: string }) {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const locale = useLocale();
  const localePath = useLocalePath();
  const query = usePurchase(purchaseId);
  if (query.isPending) return <Loading label={t("loading")} />;
  if (query.isError)
    return (
      <AccountSection title={t("ppv.receiptTitle")}>
        <FormAlert tone="danger">{errorText(query.error)}</FormAlert>
        <Link to={localePath("/account/ppv")}>{t("ppv.allPurchases")}</Link>
      </AccountSection>
    );
  const { purchase, eventId } = query.data;
  const rows: [string, string][] = [
    [t("receipt.product"), purchase.title],
    [t("receipt.status"), t(`status.${purchase.status}`)],
    [t("receipt.amount"), formatPrice(purchase, locale)],
    [t("receipt.currency"), purchase.currency],
    [
      t("receipt.paidWith"),
      purchase.paymentAction === "redeemAccessCode" ? t("receipt.accessCode") : t("receipt.card"),
    ],
    [t("receipt.date"), formatDate(purchase.added, locale)],
    [t("receipt.validUntil"), formatDate(purchase.validUntil, locale)],
  ];
  return (
    <AccountSection title={t("ppv.receiptTitle")}>
      <dl className="commerce-details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {purchase.errorCode && <FormAlert tone="danger">{errorText({ code: purchase.errorCode })}</FormAlert>}
      <div className="commerce-actions">
        {eventId && (
          <Link className="btn btn--primary" to={localePath(`/events/${eventId}`)}>
            {t("ppv.watch")}
          </Link>
        )}
        <Link to={localePath("/account/ppv")}>{t("ppv.allPurchases")}</Link>
      </div>
    </AccountSection>
  );
}
