import { Suspense, lazy, type ReactNode } from "react";
import { PageSkeleton } from "@/ui/PageSkeleton";
import { AuthLayout } from "./AuthLayout";

// The account area's chrome and its translations load with its first page, not with the app.
const AccountArea = lazy(() => import("./AccountArea"));

/**
 * Every /account page (spec §2, the auth layout): the auth layout's frame around the account
 * area, whose profile summary, section menu and Log out surround the page's own section.
 */
export function AccountLayout({ children }: { children: ReactNode }) {
  return (
    <AuthLayout>
      <Suspense fallback={<PageSkeleton />}>
        <AccountArea>{children}</AccountArea>
      </Suspense>
    </AuthLayout>
  );
}

export default AccountLayout;
