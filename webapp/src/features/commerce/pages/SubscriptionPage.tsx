import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { useContracts } from "../api/subscriptions";
import { ContractView } from "../components/ContractView";
import { AccountSection, Loading } from "../components/Section";

/** /account/subscription: the viewer's contracts, newest first, and ways to get another. */
export default function SubscriptionPage() {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const contracts = useContracts();
  return (
    <AccountSection title={t("contract.title")}>
      {contracts.isPending ? (
        <Loading label={t("loading")} />
      ) : contracts.isError ? (
        <FormAlert tone="danger">{errorText(contracts.error)}</FormAlert>
      ) : contracts.data.length === 0 ? (
        <p>{t("contract.empty")}</p>
      ) : (
        <div className="commerce-list">
          {contracts.data.map((contract) => (
            <ContractView key={contract.id} contract={contract} linkTitle />
          ))}
        </div>
      )}
      <div className="commerce-actions">
        <Link className="btn btn--primary" to={localePath("/auth/sign-up/subscription")}>
          {t("contract.browse")}
        </Link>
        <Link className="btn" to={localePath("/auth/sign-up/subscription/code?redirect=/account/subscription")}>
          {t("code.link")}
        </Link>
      </div>
    </AccountSection>
  );
}
