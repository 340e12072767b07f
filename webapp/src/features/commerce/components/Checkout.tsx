import { useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { isApiError } from "@/api/client";
import { formatPrice, productDescription, type Product } from "@/entities/product";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { notify } from "@/lib/notify";
import { FormAlert } from "@/ui/form/FormAlert";
import { useStoredCard } from "../api/cards";
import { pay, type Order, type Payment } from "../api/pay";
import { paymentPath } from "../lib/paths";
import { CardForm } from "./CardForm";
import { ProductDetails } from "./ProductDetails";

/** Refusals of the charge itself: the failure page tells why. */
const REFUSED = new Set(["card_declined", "insufficient_funds", "card_expired", "expired_card", "payment_error"]);

/** A product, what it costs and unlocks, and the card form that pays for it. */
export function Checkout({ product, order, redirect }: { product: Product; order: Order; redirect: string | null }) {
  const { t } = useTranslation("commerce");
  const locale = useLocale();
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const storedCard = useStoredCard();
  const eventId = order.kind === "ppv" ? order.eventId : null;

  if (product.active) {
    return <FormAlert tone="info">{t("checkout.alreadyHeld")}</FormAlert>;
  }
  if (!product.availableInUserRegion) {
    return <FormAlert tone="danger">{t("checkout.notInRegion")}</FormAlert>;
  }

  const onPay = async (payment: Payment) => {
    const base = { eventId, productId: product.id, redirect };
    try {
      const result = await pay(order, payment);
      const ref = { ...base, record: result.record, id: result.id };
      navigate(localePath(paymentPath(result.processing ? "processing" : "success", ref)));
    } catch (error) {
      if (isApiError(error) && error.code && REFUSED.has(error.code)) {
        const record = order.kind === "ppv" ? "purchase" : "contract";
        navigate(localePath(paymentPath("failure", { ...base, record, reason: error.code })));
        return;
      }
      if (isApiError(error, "network_error")) void notify.danger(t("checkout.networkRetry"));
      throw error;
    }
  };

  return (
    <div className="commerce-checkout">
      <div className="commerce-checkout__product">
        <h3 className="commerce-checkout__title">{product.title}</h3>
        {productDescription(product, locale) && <p dir="auto">{productDescription(product, locale)}</p>}
        <ProductDetails product={product} />
      </div>
      {product.purchaseProcessing ? (
        <FormAlert tone="info">{t("checkout.processing")}</FormAlert>
      ) : storedCard.isPending ? (
        <p aria-busy="true">{t("loading")}</p>
      ) : (
        <CardForm
          storedCard={storedCard.data ?? null}
          saveByDefault={order.kind === "subscription"}
          submitLabel={t("checkout.pay", { price: formatPrice(product, locale) })}
          onPay={onPay}
        />
      )}
    </div>
  );
}
