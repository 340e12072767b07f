import { Link, useParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { useContract } from "../api/subscriptions";
import { ContractView } from "../components/ContractView";
import { ProductDetails } from "../components/ProductDetails";
import { AccountSection, Loading } from "../components/Section";

/** /account/subscription/:id: one contract with what its product unlocks. */
export default function ContractPage() {
  const { id = "" } = useParams();
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const localePath = useLocalePath();
  const contract = useContract(id);
  return (
    <AccountSection title={t("contract.detailTitle")}>
      {contract.isPending ? (
        <Loading label={t("loading")} />
      ) : contract.isError ? (
        <FormAlert tone="danger">{errorText(contract.error)}</FormAlert>
      ) : (
        <>
          <ContractView contract={contract.data} />
          <ProductDetails product={contract.data.product} />
        </>
      )}
      <Link to={localePath("/account/subscription")}>{t("contract.all")}</Link>
    </AccountSection>
  );
}
