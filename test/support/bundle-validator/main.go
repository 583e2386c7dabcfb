// Command bundle-validator loads an OLM bundle directory and prints, as JSON, what the operator
// framework's validators say about it: the default bundle validators (the ones
// `operator-sdk bundle validate` runs) and the OperatorHub validator.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
	"github.com/operator-framework/api/pkg/validation/errors"
)

// finding is one error or warning of a validator.
type finding struct {
	Type   string `json:"type"`
	Level  string `json:"level"`
	Field  string `json:"field,omitempty"`
	Detail string `json:"detail"`
}

// report is what the program prints: a load error, or the validators' findings.
type report struct {
	LoadError string    `json:"loadError,omitempty"`
	Errors    []finding `json:"errors"`
	Warnings  []finding `json:"warnings"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bundle-validator <bundle-dir>")
		os.Exit(2)
	}
	out := report{Errors: []finding{}, Warnings: []finding{}}
	bundle, err := manifests.GetBundleFromDir(os.Args[1])
	if err != nil {
		out.LoadError = err.Error()
	} else {
		validators := validation.DefaultBundleValidators.WithValidators(validation.OperatorHubV2Validator)
		// The OperatorHub validator reads its optional values from a map among the objects.
		for _, result := range validators.Validate(bundle, map[string]string{}) {
			for _, e := range result.Errors {
				out.Errors = append(out.Errors, toFinding(e))
			}
			for _, w := range result.Warnings {
				out.Warnings = append(out.Warnings, toFinding(w))
			}
		}
	}
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetIndent("", "  ")
	if err := encoder.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func toFinding(e errors.Error) finding {
	return finding{Type: string(e.Type), Level: string(e.Level), Field: e.Field, Detail: e.Detail}
}
