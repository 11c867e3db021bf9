import { unwrap } from '@palisade/api-client';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { downloadText } from '@/lib/download';
import { fetchSupportConfiguration, fetchSupportLogs } from './support.queries';

/** A file name stamp: the time of the download, without characters file systems refuse. */
const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

/** Reads fresh support data and saves it as a JSON file. */
export function useDownloadSupportData() {
  return useMutation({
    mutationFn: async () => {
      const data = await fetchSupportConfiguration();
      downloadText(`palisade-support-${stamp()}.json`, `${JSON.stringify(data, null, 2)}\n`, 'application/json');
    },
  });
}

/** Reads the API's last log lines (already redacted by the API) and saves them as a text file. */
export function useDownloadLogs() {
  return useMutation({
    mutationFn: async () => {
      downloadText(`palisade-logs-${stamp()}.txt`, await fetchSupportLogs());
    },
  });
}

/** POST /mail/support: the API sends both files and answers with the SMTP server's verdict. */
export function useSendSupportMail() {
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.POST('/api/v1/mail/support'));
    },
  });
}
