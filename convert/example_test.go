package convert_test

import (
	"context"
	"fmt"
	"log"
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
