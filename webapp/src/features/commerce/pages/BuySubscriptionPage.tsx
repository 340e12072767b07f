import { Link, useParams, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { useSubscriptionProduct } from "../api/subscriptions";
import { Checkout } from "../components/Checkout";
import { AccountSection, Loading } from "../components/Section";
import { safeReturnPath } from "../lib/paths";

/** /account/subscription/buy/:id: subscribe to a subscription (svod, cvod) or bundle. */
export default function BuySubscriptionPage() {
  const { t } = useTranslation("commerce");
  return (
    <AccountSection title={t("subscribe.title")}>
      <BuySubscription />
    </AccountSection>
  );
}

export function BuySubscription() {
  const { id = "" } = useParams();
  const [search] = useSearchParams();
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const product = useSubscriptionProduct(id);
  const redirect = safeReturnPath(search.get("redirect"));
  return (
    <>
      {product.isPending ? (
        <Loading label={t("loading")} />
      ) : product.isError ? (
        <FormAlert tone="danger">{errorText(product.error)}</FormAlert>
      ) : (
        <Checkout product={product.data} order={{ kind: "subscription", productId: id }} redirect={redirect} />
      )}
      <Link to={localePath(redirect ?? "/auth/sign-up/subscription")}>{t("subscribe.back")}</Link>
    </>
  );
}
