import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "@/api/client";
import { errorText } from "@/api/errors";
import { mapUserClip, type UserClip } from "@/entities/clip";
import { notify } from "@/lib/notify";
import type { ListPage } from "./watchlist";

export const MY_CLIPS_PAGE_SIZE = 24;
export const myClipsKey = ["following", "my-clips"] as const;

type ClipsData = InfiniteData<ListPage<UserClip>, number>;

/** The viewer's own clips of every event (list_user_clips), newest first. */
export function useMyClips() {
  return useInfiniteQuery({
    queryKey: myClipsKey,
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<ListPage<UserClip>> => {
      const answer = await unwrap(
        api.POST("/clip/user_list", {
          body: {
            page: pageParam,
            size: MY_CLIPS_PAGE_SIZE,
            next: true,
            count: false,
            sort: "added",
            order: "desc",
            media_type: ["user_clip", "user_highlight"],
          },
          signal,
        }),
      );
      return {
        page: pageParam,
        entries: answer.content.entries.map(mapUserClip),
        nextExists: answer.content.nextExists === true,
      };
    },
    getNextPageParam: (last) => (last.nextExists ? last.page + 1 : undefined),
  });
}

function useOptimisticClips() {
  const queryClient = useQueryClient();
  return {
    queryClient,
    async change(update: (clip: UserClip) => UserClip | null) {
      await queryClient.cancelQueries({ queryKey: myClipsKey });
      const snapshot = queryClient.getQueryData<ClipsData>(myClipsKey);
      queryClient.setQueryData<ClipsData>(myClipsKey, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((p) => ({
                ...p,
                entries: p.entries.flatMap((clip) => {
                  const next = update(clip);
                  return next ? [next] : [];
                }),
              })),
            }
          : data,
      );
      return { snapshot };
    },
    restore(snapshot: ClipsData | undefined) {
      if (snapshot) queryClient.setQueryData(myClipsKey, snapshot);
    },
  };
}

/** Renames one of the viewer's clips (clip/update). */
export function useRenameMyClip() {
  const clips = useOptimisticClips();
  const { t } = useTranslation(["following", "errors"]);
  return useMutation({
    mutationFn: async ({ clip, title }: { clip: UserClip; title: string }) => {
      const answer = await unwrap(
        api.POST("/clip/update/{id}", { params: { path: { id: clip.id } }, body: { title } }),
      );
      return mapUserClip(answer.content);
    },
    onMutate: ({ clip, title }) => clips.change((c) => (c.id === clip.id ? { ...c, title } : c)),
    onError: (error, { clip }, context) => {
      clips.restore(context?.snapshot);
      void notify.danger(t("following:toast.renameFailed", { name: clip.title }), {
        description: errorText(error, t),
      });
    },
    onSettled: () => clips.queryClient.invalidateQueries({ queryKey: myClipsKey }),
  });
}

/** Deletes one of the viewer's clips (clip/delete). */
export function useDeleteMyClip() {
  const clips = useOptimisticClips();
  const { t } = useTranslation(["following", "errors"]);
  return useMutation({
    mutationFn: async (clip: UserClip) => {
      await unwrap(api.POST("/clip/delete/{id}", { params: { path: { id: clip.id } } }));
    },
    onMutate: (clip) => clips.change((c) => (c.id === clip.id ? null : c)),
    onError: (error, clip, context) => {
      clips.restore(context?.snapshot);
      void notify.danger(t("following:toast.deleteFailed", { name: clip.title }), {
        description: errorText(error, t),
      });
    },
    onSettled: () => clips.queryClient.invalidateQueries({ queryKey: myClipsKey }),
  });
}
