import { useTranslation } from "react-i18next";
import { CommercePage } from "../components/Section";
import { BuySubscription } from "./BuySubscriptionPage";

/** /auth/sign-up/subscription/buy/:id: the sign-up flow's checkout of a subscription. */
export default function SignUpBuySubscriptionPage() {
  const { t } = useTranslation("commerce");
  return (
    <CommercePage title={t("subscribe.title")}>
      <BuySubscription />
    </CommercePage>
  );
}
