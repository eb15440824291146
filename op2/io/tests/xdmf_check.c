/*
 * xdmf_check - checks an .xmf file:
 *   1. it is well-formed XML (python3's xml.etree parses it), when a python3
 *      interpreter is given;
 *   2. every DataItem with Format="HDF" names "file.h5:/path" where file.h5
 *      (relative to the .xmf's directory) is an HDF5 file holding a dataset
 *      at /path whose element count equals the product of the DataItem's
 *      Dimensions.
 * usage: xdmf_check <python3 or ""> <file.xmf>; exit 0 when all is well.
 */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures = 0;

static void fail(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "xdmf_check: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  failures++;
}

static char *slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f)
    return NULL;
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    return NULL;
  }
  long n = ftell(f);
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return NULL;
  }
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s)
    s[n] = '\0';
  fclose(f);
  return s;
}

static int xml_well_formed(const char *python, const char *file) {
  static const char *code = "import sys, xml.etree.ElementTree as ET\n"
                            "root = ET.parse(sys.argv[1]).getroot()\n"
                            "assert root.tag == 'Xdmf', 'root element is ' + root.tag\n";
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    execlp(python, python, "-c", code, file, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (waitpid(pid, &st, 0) != pid)
    return -1;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Decodes the five XML entities in place. */
static void unescape(char *s) {
  static const struct {
    const char *e;
    char c;
  } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  char *w = s;
  for (char *r = s; *r;) {
    int done = 0;
    for (size_t k = 0; k < sizeof ents / sizeof ents[0] && !done; ++k) {
      size_t n = strlen(ents[k].e);
      if (strncmp(r, ents[k].e, n) == 0) {
        *w++ = ents[k].c;
        r += n;
        done = 1;
      }
    }
    if (!done)
      *w++ = *r++;
  }
  *w = '\0';
}

/* Value of attribute name inside the tag text [tag, end), malloc'd or NULL. */
static char *attr(const char *tag, const char *end, const char *name) {
  size_t n = strlen(name);
  for (const char *p = tag; p && p < end; ++p) {
    if ((p == tag || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t') && strncmp(p, name, n) == 0 &&
        p[n] == '=' && p[n + 1] == '"') {
      const char *v = p + n + 2;
      const char *q = memchr(v, '"', (size_t)(end - v));
      if (!q)
        return NULL;
      char *out = malloc((size_t)(q - v) + 1);
      if (!out)
        return NULL;
      memcpy(out, v, (size_t)(q - v));
      out[q - v] = '\0';
      return out;
    }
  }
  return NULL;
}

/* Dataset at path exists (walking groups) and holds how many elements. */
static long long dataset_elements(hid_t f, const char *path) {
  char *p = strdup(path);
  if (!p)
    return -1;
  size_t n = strlen(p);
  for (size_t i = 1; i <= n; ++i) {
    if (i < n && p[i] != '/')
      continue;
    char c = p[i];
    p[i] = '\0';
    if (H5Lexists(f, p, H5P_DEFAULT) <= 0) {
      free(p);
      return -1;
    }
    p[i] = c;
  }
  free(p);
  hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
  if (d < 0)
    return -1;
  hid_t s = H5Dget_space(d);
  long long np = s < 0 ? -1 : (long long)H5Sget_simple_extent_npoints(s);
  if (s >= 0)
    H5Sclose(s);
  H5Dclose(d);
  return np;
}

/* Product of the numbers in a Dimensions string; n receives how many. */
static long long dims_product(const char *dims, long long *v, int *n) {
  long long prod = 1;
  *n = 0;
  const char *p = dims;
  while (*p) {
    char *e;
    long long x = strtoll(p, &e, 10);
    if (e == p)
      break;
    if (*n < 16)
      v[(*n)++] = x;
    prod *= x;
    p = e;
  }
  return prod;
}

/* <DataItem ItemType="HyperSlab" Dimensions="OUT"> <DataItem Format="XML">start
 * stride count</DataItem> <DataItem Dimensions="SRC" ...>: the selection must fit
 * the source and hold as many elements as OUT. */
static void check_hyperslab(const char *p, const char *end) {
  char *outd = attr(p, end, "Dimensions");
  const char *sel = strstr(end, "<DataItem");
  const char *selend = sel ? strchr(sel, '>') : NULL;
  const char *src = selend ? strstr(selend, "<DataItem") : NULL;
  const char *srcend = src ? strchr(src, '>') : NULL;
  char *srcd = srcend ? attr(src, srcend, "Dimensions") : NULL;
  if (!outd || !srcd) {
    fail("HyperSlab without Dimensions or inner items%s%s", "", "");
    free(outd);
    free(srcd);
    return;
  }
  long long ov[16], sv[16], selv[48];
  int on, sn, seln = 0;
  long long want = dims_product(outd, ov, &on);
  dims_product(srcd, sv, &sn);
  const char *t = selend + 1;
  while (seln < 48) {
    char *e;
    long long x = strtoll(t, &e, 10);
    if (e == t)
      break;
    selv[seln++] = x;
    t = e;
  }
  if (seln != 3 * sn) {
    fail("HyperSlab selection has %s numbers for source Dimensions '%s'", seln == 0 ? "no" : "wrong count of", srcd);
  } else {
    long long count = 1;
    for (int k = 0; k < sn; ++k) {
      long long st = selv[k], stride = selv[sn + k], c = selv[2 * sn + k];
      count *= c;
      if (st < 0 || stride < 1 || c < 1 || st + stride * (c - 1) >= sv[k])
        fail("HyperSlab selection outside the source '%s'%s", srcd, "");
    }
    if (count != want)
      fail("HyperSlab selects a different number of elements than Dimensions '%s'%s", outd, "");
    else
      printf("ok: HyperSlab %s of [%s]\n", outd, srcd);
  }
  free(outd);
  free(srcd);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <python3 or \"\"> <file.xmf>\n", argv[0]);
    return 2;
  }
  const char *python = argv[1], *xmf = argv[2];
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  char *text = slurp(xmf);
  if (!text) {
    fail("cannot read '%s'%s", xmf, "");
    return 1;
  }
  if (python[0]) {
    int ok = xml_well_formed(python, xmf);
    if (ok != 1)
      fail("'%s' is not well-formed XDMF XML (python3 xml.etree)%s", xmf, "");
    else
      printf("well-formed XML: %s\n", xmf);
  } else {
    printf("python3 not available: XML well-formedness not checked\n");
  }
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", xmf);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  else
    snprintf(dir, sizeof dir, ".");

  int refs = 0;
  for (char *p = strstr(text, "<DataItem"); p; p = strstr(p + 1, "<DataItem")) {
    char *end = strchr(p, '>');
    if (!end)
      break;
    char *item = attr(p, end, "ItemType");
    if (item && strcmp(item, "HyperSlab") == 0)
      check_hyperslab(p, end);
    free(item);
    char *fmt = attr(p, end, "Format");
    int hdf = fmt && strcmp(fmt, "HDF") == 0;
    free(fmt);
    if (!hdf)
      continue;
    char *dims = attr(p, end, "Dimensions");
    char *close = strchr(end + 1, '<');
    if (!close || !dims) {
      fail("DataItem without Dimensions or text in '%s'%s", xmf, "");
      free(dims);
      continue;
    }
    size_t n = (size_t)(close - end - 1);
    char *ref = malloc(n + 1);
    if (!ref) {
      free(dims);
      return 2;
    }
    memcpy(ref, end + 1, n);
    ref[n] = '\0';
    unescape(ref);
    /* trim */
    char *r = ref;
    while (*r == ' ' || *r == '\n' || *r == '\t')
      ++r;
    char *e = r + strlen(r);
    while (e > r && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t'))
      *--e = '\0';
    char *colon = strstr(r, ":/");
    refs++;
    if (!colon) {
      fail("HDF reference '%s' is not file:/path%s", r, "");
    } else {
      *colon = '\0';
      const char *h5 = r, *path = colon + 1;
      char full[8192];
      if (h5[0] == '/')
        snprintf(full, sizeof full, "%s", h5);
      else
        snprintf(full, sizeof full, "%s/%s", dir, h5);
      long long want = 1;
      for (char *tok = strtok(dims, " "); tok; tok = strtok(NULL, " "))
        want *= atoll(tok);
      hid_t f = H5Fopen(full, H5F_ACC_RDONLY, H5P_DEFAULT);
      if (f < 0) {
        fail("cannot open HDF5 file '%s' (referenced as '%s')", full, h5);
      } else {
        long long have = dataset_elements(f, path);
        if (have < 0)
          fail("dataset '%s' missing in '%s'", path, full);
        else if (have != want) {
          char msg[64];
          snprintf(msg, sizeof msg, "%lld elements, Dimensions say %lld", have, want);
          fail("dataset '%s': %s", path, msg);
        } else
          printf("ok: %s:%s (%lld elements)\n", h5, path, have);
        H5Fclose(f);
      }
    }
    free(ref);
    free(dims);
  }
  if (refs == 0)
    fail("no HDF DataItem found in '%s'%s", xmf, "");
  free(text);
  if (failures) {
    fprintf(stderr, "xdmf_check: %d problem(s) in %s\n", failures, xmf);
    return 1;
  }
  printf("xdmf_check: %s OK (%d HDF references)\n", xmf, refs);
  return 0;
}
