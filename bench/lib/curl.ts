/** curl, a process of its own, reads `url` to its end into /dev/null; answers its HTTP status and the bytes it read. */
import { spawn } from 'node:child_process';

export function curl(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', url]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('close', () => {
      const [status, bytes] = out.trim().split(' ').map(Number);
      resolve({ status: status ?? 0, bytes: bytes ?? 0 });
    });
  });
}
