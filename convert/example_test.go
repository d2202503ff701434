package convert_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
)

// Convert the example mail server and list what its manifest declares.
func ExampleConvert() {
	res, err := convert.Convert(context.Background(), convert.Options{
		ConfigFiles: []string{"../testdata/example/mail/compose.yaml"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("status:", res.Status)
	for _, r := range res.Module.Resources {
		fmt.Println(strings.TrimSpace(fmt.Sprint(r.Kind, " ", r.Key(), " ", r.Owner, " ", r.Mode, " ", r.Intent)))
	}
	// Output:
	// status: converted
	// host /etc/localtime
	// directory /opt/mail 0:0 0755 config
	// directory /opt/mail/config 0:0 0755 config
	// directory /opt/mail/data 5000:5000 0750 state
	// directory /opt/mail/data/spool 5000:5000 0750 state
	// directory /opt/mail/data/state 5000:5000 0750 state
	// directory /opt/mail/logs 5000:5000 0750 logs
	// file /opt/mail/main.cf 0:0 0644 config
	// directory /srv/mail 0:0 0755 state
	// directory /srv/mail/dbdata 999:999 0700 state
	// container db
	// container postfix
}

// Convert the example with declarations held in memory, as ask does with
// answers it has not written yet: here the example's declarations with
// every /srv turned into /data. The file on disk is not read; the
// manifest is the one a compose2manifest.yaml holding data would give,
// its sources naming that file with the sha256 of data.
func ExampleConvert_inMemoryDeclarations() {
	data, err := os.ReadFile("../testdata/example/mail/compose2manifest.yaml")
	if err != nil {
		log.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte("/srv"), []byte("/data"))
	res, err := convert.Convert(context.Background(), convert.Options{
		ConfigFiles:  []string{"../testdata/example/mail/compose.yaml"},
		Declarations: &convert.Declarations{Data: data},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("status:", res.Status)
	for _, r := range res.Module.Resources {
		if strings.HasPrefix(r.Key(), "/data/") {
			fmt.Println(r.Kind, r.Key(), r.Owner, r.Mode, r.Intent, "#", r.Comment)
		}
	}
	sum := sha256.Sum256(data)
	for _, s := range res.Module.Sources {
		fmt.Println("source:", s.File, s.SHA256 == hex.EncodeToString(sum[:]))
	}
	// Output:
	// status: converted
	// directory /data/mail 0:0 0755 state # supplied: compose2manifest.yaml
	// directory /data/mail/dbdata 999:999 0700 state # supplied: compose2manifest.yaml; legacy: Docker volume mail_dbdata
	// source: compose.yaml false
	// source: compose2manifest.yaml true
}
