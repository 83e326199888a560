/* hilbus.h compiles as strict C99 and links against libhilbus.so; run with a socket path
 * where no rig runs: attach must fail cleanly with HILBUS_NO_ENDPOINT. The second argument is
 * $HILSIM_RUNTIME_DIR, which hilbus_runtime_directory() must answer. */
#include "hilbus.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  int status = -1;
  char why[256];
  struct hilbus_region_info info;
  hilbus_meta meta;
  hilbus_client* bus;
  const char* dir;
  double v[1];
  if (argc != 3) return 2;
  bus = hilbus_attach_ex(argv[1], NULL, 100, "c99", 0, &status, why, sizeof why);
  if (bus != NULL || status != HILBUS_NO_ENDPOINT || strstr(why, "no rig") == NULL) {
    fprintf(stderr, "attach: %p status %d why %s\n", (void*)bus, status, why);
    return 1;
  }
  /* NULL clients are refused, never dereferenced */
  if (hilbus_read(NULL, 0, v, 1, &meta) != HILBUS_BAD_ARGUMENT ||
      hilbus_region_info(NULL, 0, &info) != HILBUS_BAD_ARGUMENT || hilbus_region_count(NULL) != 0 ||
      hilbus_detached(NULL) != 1) {
    fprintf(stderr, "NULL client accepted\n");
    return 1;
  }
  hilbus_detach(NULL);
  if (strncmp(hilbus_strerror(HILBUS_ROLE_TAKEN), "HILBUS_ROLE_TAKEN", 17) != 0 ||
      strcmp(hilbus_status_name(HILBUS_ROLE_TAKEN), "role_taken") != 0) {
    fprintf(stderr, "strerror\n");
    return 1;
  }
  dir = hilbus_runtime_directory(why, sizeof why);
  if (dir == NULL || strcmp(dir, argv[2]) != 0) {
    fprintf(stderr, "runtime directory %s (%s), expected %s\n", dir ? dir : "NULL", why, argv[2]);
    return 1;
  }
  return 0;
}
