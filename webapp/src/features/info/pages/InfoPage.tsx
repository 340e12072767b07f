import { useParams } from "react-router";
import { NotFoundError } from "@/lib/errors";
import { NotFoundScreen } from "@/ui/NotFoundScreen";
import { FaqAccordion } from "../components/FaqAccordion";
import { InfoDocument } from "../components/InfoDocument";
import { isInfoType } from "../documents";

/** /info/{type}: any information document by its type; an unknown type is a 404 with context "info". */
export default function InfoPage() {
  const { type } = useParams();
  if (!isInfoType(type))
    return <NotFoundScreen error={new NotFoundError("info", `Info page not found: ${type ?? ""}`)} />;
  if (type === "faq") return <FaqAccordion />;
  return <InfoDocument key={type} type={type} />;
}
