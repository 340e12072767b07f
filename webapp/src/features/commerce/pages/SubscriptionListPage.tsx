import { Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { formatPrice, productDescription } from "@/entities/product";
import { useLocale, useLocalePath } from "@/i18n/useLocalePath";
import { FormAlert } from "@/ui/form/FormAlert";
import { useSubscriptionProducts } from "../api/subscriptions";
import { ProductDetails } from "../components/ProductDetails";
import { CommercePage, Loading } from "../components/Section";
import { safeReturnPath } from "../lib/paths";

/** /auth/sign-up/subscription: the subscriptions (svod, cvod) and bundles on sale. */
export default function SubscriptionListPage() {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const locale = useLocale();
  const localePath = useLocalePath();
  const [search] = useSearchParams();
  const redirect = safeReturnPath(search.get("redirect"));
  const back = redirect ? `?redirect=${encodeURIComponent(redirect)}` : "";
  const products = useSubscriptionProducts();
  return (
    <CommercePage title={t("plans.title")} intro={t("plans.intro")}>
      {products.isPending ? (
        <Loading label={t("loading")} />
      ) : products.isError ? (
        <FormAlert tone="danger">{errorText(products.error)}</FormAlert>
      ) : products.data.length === 0 ? (
        <p>{t("plans.empty")}</p>
      ) : (
        <ul className="commerce-list">
          {products.data.map((product) => (
            <li key={product.id} className="commerce-card">
              <div className="commerce-card__head">
                <h2 className="commerce-card__title">{product.title}</h2>
                <span className="commerce-status">{t(`plans.types.${product.type}`)}</span>
              </div>
              {productDescription(product, locale) && <p dir="auto">{productDescription(product, locale)}</p>}
              <ProductDetails product={product} />
              {product.active ? (
                <p>{t("checkout.alreadyHeld")}</p>
              ) : (
                <Link
                  className="btn btn--primary"
                  to={localePath(`/auth/sign-up/subscription/buy/${encodeURIComponent(product.id)}${back}`)}
                >
                  {t("plans.choose", { title: product.title, price: formatPrice(product, locale) })}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="commerce-actions">
        <Link to={localePath(`/auth/sign-up/subscription/code${back}`)}>{t("code.link")}</Link>
        <Link to={localePath(redirect ?? "/")}>{t("plans.skip")}</Link>
      </div>
    </CommercePage>
  );
}
